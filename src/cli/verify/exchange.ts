import { NoAnswer, type RawAnswer, requestBounded } from "../../clients/bounded-request.js";
import { checkDepth, ExchangeFailed } from "../../clients/read-answer.js";
import type { Side } from "./config.js";
import type { StepRequest } from "./step.js";

/** An answer as the command keeps it: the status, the headers a client reads, and the parsed body. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The target cannot be used for the run (an answer too large, too deep, undecodable, a token no header can carry). */
export class TargetUnusable extends Error {
  override name = "TargetUnusable";
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

export interface SendLimits {
  /** The most bytes an answer may be, as sent and as decoded. */
  maxBytes: number;
  timeoutMs?: number;
}

function headersOf(request: StepRequest, side: Side, token: string | undefined) {
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
  return headers;
}

function bodyOf(request: StepRequest): string | undefined {
  if (request.form) return new URLSearchParams(request.form).toString();
  if (request.json) return JSON.stringify(request.json);
  return undefined;
}

function answerOf(res: RawAnswer, what: string): Answer {
  const headers: Record<string, string> = {};
  const { status } = res;
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
  const text = res.bytes.toString("utf8");
  checkDepth(text, what, "verify");
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
export async function send(
  side: Side,
  request: StepRequest,
  token: string | undefined,
  limits: SendLimits,
): Promise<Answer> {
  const what = `${request.method} ${request.path}`;
  const body = bodyOf(request);
  try {
    const raw = await requestBounded({
      url: new URL(`${side.url}${request.path}`),
      method: request.method,
      headers: headersOf(request, side, token),
      body,
      maxBytes: limits.maxBytes,
      ...(limits.timeoutMs !== undefined && { timeoutMs: limits.timeoutMs }),
      what,
      reader: "verify",
    });
    return answerOf(raw, what);
  } catch (error) {
    if (error instanceof NoAnswer) throw new Unreachable(error.message);
    if (error instanceof ExchangeFailed) throw new TargetUnusable(error.message);
    throw error;
  }
}
