import type { IncomingHttpHeaders } from "node:http";
import { type RawAnswer, requestBounded } from "../clients/bounded-request.js";
import { CallFailed, said } from "../clients/play/calls.js";
import { checkDepth, ExchangeFailed } from "../clients/read-answer.js";
import { ADMIN_TOKEN_HEADER } from "../http/control/admin-token.js";
import type { HttpMethod } from "../http/route.js";

/**
 * The client `trigger` and `mcp` call a running server with: every call bounded as play's are
 * (clients/bounded-request.ts: no redirect followed, the answer capped in bytes, depth and time), the admin token
 * on control calls only and the key pair on the operations only, both to the server's own address and nowhere
 * else. Unlike play's `callJson`, a refusal is an answer like any other (status, the service's error object and
 * the request id): an agent must see what the stand-in said, and trigger matches the outbox to the request id.
 */
export interface ServerTarget {
  /** The server's base URL, without a trailing slash. */
  url: string;
  adminToken?: string | undefined;
  maxAnswerBytes: number;
  timeoutMs?: number | undefined;
  /** Who reads the answers, for messages (`trigger`, `mcp`). */
  reader: string;
}

export interface ServerCall {
  method: HttpMethod;
  /** Under the server's URL, its parameters already encoded. */
  path: string;
  query?: Readonly<Record<string, unknown>> | undefined;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as a form (the token operation). */
  form?: Readonly<Record<string, string>>;
  /** The project's key pair (and a bearer token), for the operations. */
  keys?: { appId: string; appToken: string; bearer?: string | undefined } | undefined;
}

export interface ServerAnswer {
  /** The call in words (`POST /v1/events`). */
  what: string;
  status: number;
  /** The server's id of the request (`X-Request-Id`): the journal's, and the envelope's `event.group_id`. */
  requestId: string | undefined;
  /** The JSON answer; undefined for an empty body (204). */
  body: unknown;
}

/** The path with its query: arrays repeat the parameter, undefined leaves it out, anything else as text. */
function pathWithQuery(path: string, query: ServerCall["query"]): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
  }
  const text = search.toString();
  return text === "" ? path : `${path}?${text}`;
}

function headersOf(target: ServerTarget, call: ServerCall): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "user-agent": `loyalty-mock-${target.reader}`,
  };
  if (call.path.startsWith("/__mock/")) {
    if (target.adminToken !== undefined) headers[ADMIN_TOKEN_HEADER] = target.adminToken;
  } else if (call.keys !== undefined) {
    headers["X-App-Id"] = call.keys.appId;
    headers["X-App-Token"] = call.keys.appToken;
    if (call.keys.bearer !== undefined) headers.Authorization = `Bearer ${call.keys.bearer}`;
  }
  if (call.form !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
  else if (call.json !== undefined) headers["content-type"] = "application/json";
  return headers;
}

/**
 * One call; rejects with CallFailed when there is no whole answer, when it is a redirect (never followed: the
 * credentials reach the server's own address only), or when its body is not JSON.
 */
export async function callServer(target: ServerTarget, call: ServerCall): Promise<ServerAnswer> {
  const path = pathWithQuery(call.path, call.query);
  const what = `${call.method} ${call.path}`;
  const body =
    call.form !== undefined
      ? new URLSearchParams({ ...call.form }).toString()
      : call.json !== undefined
        ? JSON.stringify(call.json)
        : undefined;
  let raw: RawAnswer;
  try {
    raw = await requestBounded({
      url: new URL(`${target.url}${path}`),
      method: call.method,
      headers: headersOf(target, call),
      body,
      maxBytes: target.maxAnswerBytes,
      timeoutMs: target.timeoutMs,
      what,
      reader: target.reader,
    });
  } catch (error) {
    if (error instanceof ExchangeFailed) throw new CallFailed(error.message);
    throw error;
  }
  if (raw.status >= 300 && raw.status < 400)
    throw new CallFailed(
      `${what} answered ${raw.status}, a redirect: ${target.reader} follows no redirect, so that its credentials reach no other address`,
    );
  const requestId = raw.headers["x-request-id"];
  return {
    what,
    status: raw.status,
    requestId: typeof requestId === "string" ? requestId : undefined,
    body: jsonOf(raw, what, target.reader),
  };
}

function jsonOf(raw: RawAnswer, what: string, reader: string): unknown {
  const text = raw.bytes.toString("utf8");
  if (text === "") return undefined;
  try {
    checkDepth(text, what, reader);
  } catch (error) {
    throw new CallFailed((error as Error).message);
  }
  try {
    return JSON.parse(text);
  } catch {
    const type = contentType(raw.headers);
    throw new CallFailed(
      `${what} answered ${raw.status} with ${raw.bytes.length} bytes that are not JSON${type}: ${reader} reads JSON answers only`,
    );
  }
}

const contentType = (headers: IncomingHttpHeaders) =>
  headers["content-type"] ? ` (Content-Type ${said(headers["content-type"])})` : "";

/** A 2xx answer's body as an object, or CallFailed naming the status and what the server said. */
export function expectOk(answer: ServerAnswer): Record<string, unknown> {
  const body = answer.body;
  const object =
    typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  if (answer.status >= 200 && answer.status < 300) return object;
  const why = [object.key, object.details ?? object.message]
    .filter((part) => typeof part === "string")
    .join(": ");
  throw new CallFailed(`${answer.what} answered ${answer.status}${why ? ` ${said(why)}` : ""}`);
}

/** The records of a list answer (`{"object":"list","data_ref":"campaigns","campaigns":[…]}`). */
export function listed(body: Record<string, unknown>): Record<string, unknown>[] {
  const ref = typeof body.data_ref === "string" ? body.data_ref : undefined;
  const items = ref !== undefined && Object.hasOwn(body, ref) ? body[ref] : undefined;
  return Array.isArray(items)
    ? items.filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null)
    : [];
}
