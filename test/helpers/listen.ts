import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

/** A server listening on a free loopback port. */
export interface Listening {
  server: Server;
  port: number;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
}

/**
 * The one way a test file puts a server of its own on the network: `const listen = useServer();` at the top of the
 * file, then `await listen(createHttpServer(app))` (or `listen(app)`, served by a plain node:http server) in a
 * test. Each server listens on a free port of 127.0.0.1 and is closed after its test, open connections (a feed, a
 * pipelined socket) included, so no test leaves a port or a socket behind.
 */
export function useServer(): (target: Server | RequestListener) => Promise<Listening> {
  const open: Server[] = [];
  afterEach(async () => {
    for (const server of open.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return async (target) => {
    const server = typeof target === "function" ? createServer(target) : target;
    open.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return { server, port, url: `http://127.0.0.1:${port}` };
  };
}
