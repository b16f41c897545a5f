import type { HttpMethod } from "../../http/route.js";
import { type RawAnswer, requestBounded } from "../bounded-request.js";
import { checkDepth, ExchangeFailed } from "../read-answer.js";

/**
 * One call of a play, made as carefully as verify makes its own (clients/bounded-request.ts): to the server's own
 * address only, no redirect followed (the key pair and the admin token would go wherever it points), the answer
 * capped in bytes, depth and time. A play's steps build on what each answer says (a card's code, the clock's
 * time, a token), so anything but a 2xx with a JSON object fails the step, in words naming what was wrong.
 */
export interface CallTarget {
  /** The server's base URL, without a trailing slash. */
  url: string;
  maxAnswerBytes: number;
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Who reads the answers, as a refusal names it: `play` unless said (`trigger`, `mcp` look a project's key up too). */
  reader?: string | undefined;
}

export interface Call {
  method: HttpMethod;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface JsonAnswer {
  /** The call in words (`POST /v1/events`), for messages. */
  what: string;
  status: number;
  body: Record<string, unknown>;
}

/** Why a call's answer cannot be played on: the step fails with this message. */
export class CallFailed extends Error {
  override name = "CallFailed";
}

/** The longest text of an answer a message repeats: an error's details, a card's code. */
const SAID_CHARS = 200;

/**
 * Text from the server as a message may print it: control and format characters (a terminal's escapes, bidi
 * overrides) shown as `?`, and no longer than SAID_CHARS, so an answer cannot rewrite the terminal it is shown on.
 */
export function said(text: string): string {
  const clean = text.replace(/[\p{Cc}\p{Cf}]/gu, "?");
  return clean.length > SAID_CHARS ? `${clean.slice(0, SAID_CHARS)}…` : clean;
}

export async function callJson(target: CallTarget, call: Call): Promise<JsonAnswer> {
  const what = `${call.method} ${call.path}`;
  const reader = target.reader ?? "play";
  let raw: RawAnswer;
  try {
    raw = await requestBounded({
      url: new URL(`${target.url}${call.path}`),
      method: call.method,
      headers: { accept: "application/json", "user-agent": "loyalty-mock-play", ...call.headers },
      body: call.body,
      maxBytes: target.maxAnswerBytes,
      timeoutMs: target.timeoutMs,
      signal: target.signal,
      what,
      reader,
    });
  } catch (error) {
    if (error instanceof ExchangeFailed) throw new CallFailed(error.message);
    throw error;
  }
  const { status } = raw;
  if (status >= 300 && status < 400) throw new CallFailed(redirected(raw, target, what, reader));
  const body = objectOf(raw, what, reader);
  if (status < 200 || status >= 300) {
    const { key, details, message } = body ?? {};
    const why = [key, details ?? message].filter((part) => typeof part === "string").join(": ");
    throw new CallFailed(`${what} answered ${status}${why ? ` ${said(why)}` : ""}`);
  }
  if (body === undefined)
    throw new CallFailed(
      `${what} answered ${status} with ${notJson(raw)}: ${reader} reads JSON answers only`,
    );
  return { what, status, body };
}

/** A string field of a call's answer; a missing one fails the step rather than printing `undefined`. */
export function textOf(answer: JsonAnswer, field: string): string {
  const value = Object.hasOwn(answer.body, field) ? answer.body[field] : undefined;
  if (typeof value !== "string" || value === "")
    throw new CallFailed(`${answer.what} answered ${answer.status} without ${field} (a string)`);
  return value;
}

/** The answer's JSON object; undefined when it is not one (an error's body may be anything, and is then not said). */
function objectOf(raw: RawAnswer, what: string, reader: string): Record<string, unknown> | undefined {
  const text = raw.bytes.toString("utf8");
  if (text === "") return raw.status === 204 ? {} : undefined;
  try {
    checkDepth(text, what, reader);
  } catch (error) {
    throw new CallFailed((error as Error).message);
  }
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function notJson(raw: RawAnswer): string {
  if (raw.bytes.length === 0) return "an empty body";
  const type = raw.headers["content-type"];
  return `${raw.bytes.length} bytes that are not a JSON object${type ? ` (Content-Type ${said(type)})` : ""}`;
}

/** A redirect named by where it points: its origin and path, no user name, password or query repeated. */
function redirected(raw: RawAnswer, target: CallTarget, what: string, reader: string): string {
  return `${what} answered ${raw.status}, a redirect${whereTo(raw.headers.location, target.url)}: ${reader} follows no redirect, so that its credentials reach no other address`;
}

function whereTo(location: string | undefined, base: string): string {
  if (location === undefined) return " (no Location)";
  if (!URL.canParse(location, base)) return " to a Location that is not a URL";
  const url = new URL(location, base);
  return ` to ${said(`${url.origin}${url.pathname}`)}`;
}
