import type { Side } from "./config.js";
import type { StepRequest } from "./scenario.js";

/** An answer as the command keeps it: the status, the headers a client reads, and the parsed body. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The side did not answer (refused, reset, timed out): exit 3, as the run cannot go on. */
export class Unreachable extends Error {
  override name = "Unreachable";
}

/** The headers a client of the service reads; the rest (dates, servers, tracing) differ for no client's sake. */
const READ_HEADERS = ["content-type", "x-rate-limit-limit", "x-rate-limit-remaining"] as const;
const TIMEOUT_MS = 15_000;

function headersOf(request: StepRequest, side: Side, token: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json" };
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

/** Sends one step's request to one side. */
export async function send(side: Side, request: StepRequest, token: string | undefined): Promise<Answer> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${side.url}${request.path}`, {
      method: request.method,
      headers: headersOf(request, side, token),
      body: bodyOf(request),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    text = await res.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new Unreachable(
      `${new URL(side.url).origin} did not answer ${request.method} ${request.path} (${cause})`,
    );
  }
  const headers: Record<string, string> = {};
  for (const name of [...READ_HEADERS, "x-rate-limit-retry", "retry-after"]) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  let body: unknown = text;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    // Not JSON: kept as text, so the comparison shows a string where JSON was expected.
  }
  return { status: res.status, headers, body };
}
