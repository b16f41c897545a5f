/**
 * One control API call over fetch: the admin token sent when there is one, a JSON body, the answer parsed, and a
 * refusal thrown as a ControlError carrying the service's error object. Nothing of the server is loaded, so the
 * client runs wherever fetch does (Node 20 and later).
 */

export interface ControlClientOptions {
  /** The server's admin token (X-Mock-Admin-Token), when it has one. */
  adminToken?: string;
  /** fetch, or a wrapper of it; the global one when absent. */
  fetch?: typeof fetch;
}

type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

interface CallInput {
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
}

/** Sends one call: the method and the path under `/__mock`, its segments already encoded. */
export type Send = <T>(method: string, path: string, input?: CallInput) => Promise<T>;

/** A control call the server refused: its status and the service's error object (`key`, `message`, `details`). */
export class ControlError extends Error {
  override name = "ControlError";
  readonly status: number;
  readonly key: string | undefined;
  readonly details: string | undefined;
  /** The whole answer, as parsed. */
  readonly body: unknown;

  constructor(call: string, status: number, body: unknown) {
    const error = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const key = typeof error.key === "string" ? error.key : undefined;
    const details = typeof error.details === "string" ? error.details : undefined;
    const message = typeof error.message === "string" ? error.message : undefined;
    super(`${call}: ${status}${key ? ` ${key}` : ""}${details || message ? `: ${details ?? message}` : ""}`);
    this.status = status;
    this.key = key;
    this.details = details;
    this.body = body;
  }
}

/** A path segment made of a caller's value (a project id, a snapshot name), encoded. */
export const segment = (value: string): string => encodeURIComponent(value);

function search(query: CallInput["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {}))
    if (value !== undefined) params.set(name, Array.isArray(value) ? value.join(",") : String(value));
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

/** An answer's body: JSON as parsed, or the text itself when it is not JSON (a proxy's page); none for 204. */
function parsed(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The sender for one server: its base URL (`http://127.0.0.1:3000`), with or without a trailing slash. */
export function sender(url: string, options: ControlClientOptions = {}): Send {
  const base = `${url.replace(/\/+$/, "")}/__mock`;
  const fetchFn = options.fetch ?? fetch;
  return async <T>(method: string, path: string, input: CallInput = {}): Promise<T> => {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (options.adminToken !== undefined) headers["X-Mock-Admin-Token"] = options.adminToken;
    if (input.body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetchFn(`${base}${path}${search(input.query)}`, {
      method,
      headers,
      ...(input.body !== undefined && { body: JSON.stringify(input.body) }),
    });
    const body = parsed(await res.text());
    if (!res.ok) throw new ControlError(`${method} /__mock${path}`, res.status, body);
    return body as T;
  };
}
