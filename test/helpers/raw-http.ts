import { connect } from "node:net";

/**
 * A deliberately small HTTP/1.1 client over a plain socket, for tests that must send what fetch and node:http
 * refuse to: bytes that are not valid HTTP, headers with odd names or values, paths that are not percent-encoded,
 * a Content-Length that lies, a body that arrives slowly. It reads one response (skipping 1xx interim answers).
 */

export interface RawResponse {
  status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
}

export interface RawRequest {
  method: string;
  /** Sent exactly as given on the request line. */
  target: string;
  /** Name/value pairs, sent in order and as given (a name may repeat). */
  headers?: readonly (readonly [string, string])[];
  /** Sent after the headers; a Content-Length is added unless `headers` has one or Transfer-Encoding. */
  body?: string | Buffer;
}

/** The bytes of a request: request line, Host, the given headers, Content-Length when needed, the body. */
export function encodeRequest(request: RawRequest): Buffer {
  const headers = request.headers ?? [];
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body);
  const names = new Set(headers.map(([name]) => name.toLowerCase()));
  const lines = [`${request.method} ${request.target} HTTP/1.1`];
  if (!names.has("host")) lines.push("Host: 127.0.0.1");
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  if (!names.has("content-length") && !names.has("transfer-encoding") && request.body !== undefined)
    lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), body]);
}

interface Parsed {
  response: RawResponse;
  complete: boolean;
}

function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine = "", ...lines] = head.split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf("\r\n", at);
    if (end < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, end).toString("latin1"), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < end + 2 + size + 2) return undefined;
    parts.push(data.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
}

/** Parses what arrived so far; `complete` once the response's body is whole (or the peer closed). */
function parse(data: Buffer, closed: boolean, head: boolean): Parsed | undefined {
  let start = 0;
  for (;;) {
    const headEnd = data.indexOf("\r\n\r\n", start);
    if (headEnd < 0) return undefined;
    const { status, headers } = parseHead(data.subarray(start, headEnd).toString("latin1"));
    const rest = data.subarray(headEnd + 4);
    // A 100 Continue (or any 1xx) comes before the real answer.
    if (status >= 100 && status < 200) {
      start = headEnd + 4;
      continue;
    }
    let bodyBytes: Buffer | undefined;
    // A HEAD answer, a 204 and a 304 have no body whatever their Content-Length says.
    if (head || status === 204 || status === 304) bodyBytes = Buffer.alloc(0);
    else if (headers["content-length"] !== undefined) {
      const length = Number(headers["content-length"]);
      bodyBytes = rest.length >= length ? rest.subarray(0, length) : closed ? rest : undefined;
    } else if (/chunked/i.test(headers["transfer-encoding"] ?? "")) bodyBytes = dechunk(rest);
    else bodyBytes = closed ? rest : undefined;
    const complete = bodyBytes !== undefined;
    const text = (bodyBytes ?? rest).toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { response: { status, headers, text, body }, complete };
  }
}

export class RawHttpError extends Error {
  override name = "RawHttpError";
}

/**
 * Sends raw bytes (or a request to encode) and resolves with the first complete response. Rejects when the
 * connection closes without one, or after `timeoutMs`.
 */
export function rawRequest(
  port: number,
  request: RawRequest | Buffer,
  options: { timeoutMs?: number; host?: string } = {},
): Promise<RawResponse> {
  const bytes = Buffer.isBuffer(request) ? request : encodeRequest(request);
  const head = !Buffer.isBuffer(request) && request.method === "HEAD";
  return new Promise((resolve, reject) => {
    const socket = connect(port, options.host ?? "127.0.0.1");
    let data = Buffer.alloc(0);
    let done = false;
    const finish = (error: Error | undefined, response?: RawResponse) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(response as RawResponse);
    };
    const timer = setTimeout(
      () => finish(new RawHttpError(`no complete response within ${options.timeoutMs ?? 10_000} ms`)),
      options.timeoutMs ?? 10_000,
    );
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const parsed = parse(data, false, head);
      if (parsed?.complete) finish(undefined, parsed.response);
    });
    const onClose = () => {
      const parsed = parse(data, true, head);
      if (parsed) finish(undefined, parsed.response);
      else finish(new RawHttpError(`connection closed without a response (${data.length} bytes received)`));
    };
    socket.on("end", onClose);
    socket.on("close", onClose);
    // A reset after the server answered and closed is not a failure; without an answer it is.
    socket.on("error", (error) => {
      const parsed = parse(data, true, head);
      if (parsed) finish(undefined, parsed.response);
      else finish(error);
    });
    socket.write(bytes);
  });
}

/** GET of the demo project's location with its key pair, raw: whether the server still serves an ordinary client. */
export function getDemoLocation(port: number): Promise<RawResponse> {
  return rawRequest(port, {
    method: "GET",
    target: "/v1/locations/loc_demo_circle",
    headers: [
      ["X-App-Id", "demo-app-id"],
      ["X-App-Token", "demo-app-token"],
    ],
  });
}
