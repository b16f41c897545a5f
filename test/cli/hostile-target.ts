import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A hostile target for `loyalty-mock verify`: a real HTTP server on loopback that answers each request as the test
 * says, most often by changing what a real stand-in behind it answered (so the run gets a token and goes on). It
 * notes every request it gets and every byte it manages to send, so a test can tell what verify sent where and how
 * much of an endless answer it read.
 */
export interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface HostileRequest extends Seen {
  /** The stand-in's answer to the same request (asked for only when called). */
  upstream(): Promise<Upstream>;
}

export type Handler = (req: HostileRequest, res: ServerResponse) => void | Promise<void>;

export interface Hostile {
  url: string;
  port: number;
  seen: Seen[];
  /** Bytes of answers written to sockets (counted as the socket accepts them). */
  bytesSent(): number;
  close(): Promise<void>;
}

function forward(upstreamUrl: string, seen: Seen, body: Buffer): Promise<Upstream> {
  const base = new URL(upstreamUrl);
  return new Promise((resolve, reject) => {
    const out = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: seen.method,
        path: seen.path,
        headers: { ...seen.headers, "accept-encoding": "identity" },
      },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => parts.push(chunk));
        answer.on("end", () =>
          resolve({
            status: answer.statusCode ?? 502,
            headers: answer.headers,
            text: Buffer.concat(parts).toString("utf8"),
          }),
        );
      },
    );
    out.on("error", reject);
    out.end(body);
  });
}

export async function startHostile(upstreamUrl: string | undefined, handle: Handler): Promise<Hostile> {
  const seen: Seen[] = [];
  let written = 0;
  const open = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: Seen = { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers };
      seen.push(request);
      const upstream = () => {
        if (upstreamUrl === undefined) throw new Error("this hostile target has no stand-in behind it");
        return forward(upstreamUrl, request, Buffer.concat(chunks));
      };
      Promise.resolve(handle({ ...request, upstream }, res)).catch((error: Error) => {
        if (!res.headersSent) res.writeHead(599).end(error.message);
      });
    });
  });
  server.on("connection", (socket) => {
    open.add(socket);
    socket.on("close", () => {
      open.delete(socket);
      written += socket.bytesWritten;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    bytesSent: () => [...open].reduce((sum, socket) => sum + socket.bytesWritten, written),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends the stand-in's answer with `text` as its body, the framing headers made to fit. */
export function answerWith(
  res: ServerResponse,
  upstream: Upstream,
  text: string,
  headers: IncomingHttpHeaders = {},
) {
  const merged: IncomingHttpHeaders = { ...upstream.headers, ...headers };
  delete merged["transfer-encoding"];
  delete merged.connection;
  delete merged["keep-alive"];
  merged["content-length"] = String(Buffer.byteLength(text));
  res.writeHead(upstream.status, merged as Record<string, string>).end(text);
}

/** Writes `chunk` again and again while the client reads, until `total` bytes (endless when undefined). */
export function stream(res: ServerResponse, chunk: Buffer, total?: number): void {
  let sent = 0;
  const more = () => {
    while (total === undefined || sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", more);
    }
    res.end();
  };
  res.on("close", () => res.removeAllListeners("drain"));
  more();
}
