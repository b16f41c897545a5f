import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { type RunningServer, type StartOptions, startServer } from "../../src/index.js";

/** A fresh folder per test with a state file path in it, and servers started on that file. */
export interface StateFileServers {
  /** The test's own folder, removed after it. */
  readonly dir: string;
  /** `<dir>/state.json` unless a test points it elsewhere. */
  file: string;
  /** A server on port 0 keeping its state in `file`; closed after the test. */
  start(options?: StartOptions): Promise<RunningServer>;
  /** Closes `server` and starts a new one on the same file, as a process restart does. */
  restart(server: RunningServer, options?: StartOptions): Promise<RunningServer>;
}

/** For a test file whose servers keep a state file: `const disk = useStateFileServers("persist");` at its top. */
export function useStateFileServers(name: string): StateFileServers {
  const running: RunningServer[] = [];
  let dir = "";
  const servers: StateFileServers = {
    get dir() {
      return dir;
    },
    file: "",
    async start(options = {}) {
      const server = await startServer({ port: 0, stateFile: servers.file, ...options });
      running.push(server);
      return server;
    },
    async restart(server, options = {}) {
      await server.close();
      running.splice(running.indexOf(server), 1);
      return servers.start(options);
    },
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), `loyalty-mock-${name}-`));
    servers.file = join(dir, "state.json");
  });
  afterEach(async () => {
    for (const server of running.splice(0)) await server.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  return servers;
}
