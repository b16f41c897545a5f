import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Side } from "./config.js";
import { MAX_ANSWER_DEPTH, nestedDeeper, readBody, TargetUnusable } from "./read-answer.js";
import type { StepRequest } from "./scenario.js";

/** An answer as the command keeps it: the status, the headers a client reads, and the parsed body. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The side did not answer (refused, reset, timed out): exit 3, as the run cannot go on. */
class Unreachable extends TargetUnusable {
  override name = "Unreachable";
}

/**
 * The headers a client of the service reads; the rest (dates, servers, tracing) differ for no client's sake.
 * `location` is kept for a redirect, which verify never follows: the key pair goes to the target's own address
 * only, never to wherever its answer points (a 307 to another host would otherwise carry it there).
 */
const READ_HEADERS = ["content-type", "x-rate-limit-limit", "x-rate-limit-remaining"] as const;
const TIMEOUT_MS = 15_000;

export interface SendLimits {
  /** The most bytes an answer may be, as sent and as decoded. */
  maxBytes: number;
  timeoutMs?: number;
}

function headersOf(request: StepRequest, side: Side, token: string | undefined, body: string | undefined) {
  const headers: Record<string, string> = {
    accept: "application/json",
    "accept-encoding": "gzip, deflate, br",
  };
  if (request.credentials !== "none") {
    headers["x-app-id"] = side.appId;
    headers["x-app-token"] = side.appToken;
  }
  // Without a token (the token step failed on this side) the call goes without it, and its answer says so.
  if (request.credentials === "key+bearer" && token) headers.authorization = `Bearer ${token}`;
  if (request.form) headers["content-type"] = "application/x-www-form-urlencoded";
  if (request.json) headers["content-type"] = "application/json";
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  return headers;
}

function bodyOf(request: StepRequest): string | undefined {
  if (request.form) return new URLSearchParams(request.form).toString();
  if (request.json) return JSON.stringify(request.json);
  return undefined;
}

function answerOf(res: IncomingMessage, bytes: Buffer, what: string): Answer {
  const headers: Record<string, string> = {};
  const status = res.statusCode ?? 0;
  const names = [
    ...READ_HEADERS,
    "x-rate-limit-retry",
    "retry-after",
    ...(status >= 300 && status < 400 ? ["location"] : []),
  ];
  for (const name of names) {
    const value = res.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const text = bytes.toString("utf8");
  if (nestedDeeper(text, MAX_ANSWER_DEPTH))
    throw new TargetUnusable(
      `the answer to ${what} nests deeper than ${MAX_ANSWER_DEPTH} levels: verify does not read it`,
    );
  let body: unknown = text;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    // Not JSON: kept as text, so the comparison shows a string where JSON was expected.
  }
  return { status, headers, body };
}

/**
 * Sends one step's request to one side, on a connection of its own, and reads the answer within the limits. A
 * redirect is an answer like any other (its status and `Location`), never followed.
 */
export function send(
  side: Side,
  request: StepRequest,
  token: string | undefined,
  limits: SendLimits,
): Promise<Answer> {
  const url = new URL(`${side.url}${request.path}`);
  const what = `${request.method} ${request.path}`;
  const body = bodyOf(request);
  const timeoutMs = limits.timeoutMs ?? TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        resolve(outcome());
      } catch (error) {
        reject(error);
      }
    };
    const fail = (error: Error) =>
      settle(() => {
        outgoing?.destroy();
        throw error;
      });
    const timer = setTimeout(
      () =>
        fail(new Unreachable(`${url.origin} gave no whole answer to ${what} within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    let outgoing: ReturnType<typeof httpRequest> | undefined;
    try {
      const open = url.protocol === "https:" ? httpsRequest : httpRequest;
      outgoing = open(url, {
        method: request.method,
        headers: headersOf(request, side, token, body),
        agent: false,
      });
    } catch (error) {
      // The config and the token are checked before they are sent; this is the last guard.
      fail(new TargetUnusable(`${what} could not be sent: ${(error as Error).message}`));
      return;
    }
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      fail(new Unreachable(`${url.origin} did not answer ${what} (${error.code ?? error.message})`)),
    );
    outgoing.on("response", (res) => {
      readBody(res, what, limits.maxBytes).then(
        (bytes) => settle(() => answerOf(res, bytes, what)),
        (error: Error) => fail(error),
      );
    });
    outgoing.end(body);
  });
}
