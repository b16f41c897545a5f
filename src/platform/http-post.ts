import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

/** How one POST went: the receiver's status once its whole answer was read, or why there was none. */
export interface PostOutcome {
  status: number | null;
  timeMs: number;
  error: string | null;
}

export interface PostRequest {
  url: string;
  body: string;
  headers: Readonly<Record<string, string>>;
  /** The whole exchange, connection to the answer's last byte. */
  timeoutMs: number;
  /** Aborts the request (a server shutting down); the outcome then says so. */
  signal?: AbortSignal;
}

/**
 * POSTs a body and reads the answer, never throwing: a refused connection, a timeout or an abort is an outcome
 * with `error` set. A new connection per request (no agent): nothing is kept open for the process to wait on, and
 * a receiver that answers slowly holds only its own request.
 */
export function postJson(req: PostRequest): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let status: number | null = null;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener("abort", onAbort);
      resolve({ status, timeMs: elapsed(), error });
    };
    const send = req.url.startsWith("https:") ? httpsRequest : httpRequest;
    const outgoing = send(req.url, {
      method: "POST",
      agent: false,
      headers: {
        ...req.headers,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(req.body)),
      },
    });
    const timer = setTimeout(() => {
      finish(`timed out after ${req.timeoutMs} ms`);
      outgoing.destroy();
    }, req.timeoutMs);
    const onAbort = () => {
      finish("aborted: the server is shutting down");
      outgoing.destroy();
    };
    req.signal?.addEventListener("abort", onAbort, { once: true });
    outgoing.on("response", (res) => {
      status = res.statusCode ?? null;
      // The answer's body is not kept, only read to its end so the exchange is complete.
      res.on("data", () => undefined);
      res.on("end", () => finish(null));
      res.on("error", (error) => finish(error.message));
    });
    outgoing.on("error", (error) => finish(error.message));
    outgoing.end(req.body);
  });
}
