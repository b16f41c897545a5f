import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { ExchangeFailed, readBody } from "./read-answer.js";

/** How long a whole exchange may take, connection to the answer's last byte, unless the caller says otherwise. */
export const ANSWER_TIMEOUT_MS = 15_000;

export interface BoundedRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** The most bytes the answer may be, as sent and as decoded. */
  maxBytes: number;
  timeoutMs?: number;
  /** Stops the exchange where it is (a server closing): it rejects with NoAnswer, giving the signal's reason. */
  signal?: AbortSignal | undefined;
  /** The request in words (`POST /v1/oauth/token`) and the command that reads the answer (`verify`), for messages. */
  what: string;
  reader: string;
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

/** The server gave no whole answer: refused, reset, timed out, or the exchange was stopped. */
export class NoAnswer extends ExchangeFailed {
  override name = "NoAnswer";
}

/** A connection refused by each address of a name that has two (localhost) carries its code on each of them. */
function codeOf(error: NodeJS.ErrnoException & { errors?: NodeJS.ErrnoException[] }): string {
  return error.code ?? error.errors?.find((one) => one.code)?.code ?? error.message;
}

/**
 * Sends one request on a connection of its own (no agent: nothing is kept open for the process to wait on) and
 * reads its answer within the bounds. A redirect is an answer like any other (its status and `Location`), never
 * followed: whatever credentials the headers carry reach `url`'s origin and no other, whatever the answer says.
 * Rejects with NoAnswer, or ExchangeFailed for an answer too large, undecodable or cut off, or a request that
 * cannot be sent.
 */
export function requestBounded(request: BoundedRequest): Promise<RawAnswer> {
  const { url, what, signal } = request;
  const timeoutMs = request.timeoutMs ?? ANSWER_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    let settled = false;
    let outgoing: ReturnType<typeof httpRequest> | undefined;
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (error: Error) => {
      if (settled) return;
      finish();
      outgoing?.destroy();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new NoAnswer(`${url.origin} gave no whole answer to ${what} within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    const onAbort = () => fail(new NoAnswer(`${what} stopped: ${stopReasonOf(signal)}`));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const open = url.protocol === "https:" ? httpsRequest : httpRequest;
      const { body, headers } = request;
      const length = body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) };
      outgoing = open(url, { method: request.method, headers: { ...headers, ...length }, agent: false });
    } catch (error) {
      // A header no HTTP request can carry (a token with a line break): refused here, before anything is sent.
      return fail(new ExchangeFailed(`${what} could not be sent: ${(error as Error).message}`));
    }
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      fail(new NoAnswer(`${url.origin} did not answer ${what} (${codeOf(error)})`)),
    );
    outgoing.on("response", (res) => {
      readBody(res, what, request.maxBytes, request.reader).then((bytes) => {
        if (settled) return;
        finish();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes });
      }, fail);
    });
    outgoing.end(request.body);
  });
}

/** Why a signal stopped something, in words: the reason it was given, or that it was stopped. */
export function stopReasonOf(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (typeof reason === "string") return reason;
  return reason instanceof Error && reason.name !== "AbortError" ? reason.message : "stopped";
}
