import type { Request, Response } from "express";

/** Which browser origins may call: any (`*`, as the real API), or these exact origins. */
export type CorsOrigins = "*" | readonly string[];

/**
 * Methods and request headers a browser may use, announced on every preflight: the operations' and the
 * control API's methods, and the headers the service's clients send (the official SDKs: X-App-Id, X-App-Token,
 * X-Client-Application-Id, X-Client-Token, X-Voucherify-Channel, X-Voucherify-API-Version,
 * X-Voucherify-Double-Opt-In; OAuth: Authorization, X-Service-OAuth; and our control API's X-Mock-Admin-Token).
 */
const METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";
const REQUEST_HEADERS = [
  "Accept",
  "Authorization",
  "Content-Type",
  "X-App-Id",
  "X-App-Token",
  "X-Client-Application-Id",
  "X-Client-Token",
  "X-Mock-Admin-Token",
  "X-Request-Id",
  "X-Service-OAuth",
  "X-Voucherify-API-Version",
  "X-Voucherify-Channel",
  "X-Voucherify-Double-Opt-In",
].join(", ");
/** Without this a page's script could not read the request id or the rate-limit numbers of an answer. */
const EXPOSED_HEADERS = [
  "Allow",
  "Retry-After",
  "X-Rate-Limit-Limit",
  "X-Rate-Limit-Remaining",
  "X-Rate-Limit-Retry",
  "X-Rate-Limit-Type",
  "X-Request-Id",
].join(", ");
/** How long a browser may reuse a preflight's answer, in seconds. */
const MAX_AGE = "600";

/**
 * CORS for the whole server (the service documents that it supports cross-origin calls:
 * documentation/api-reference/introduction-api.mdx). A preflight (OPTIONS with Origin and
 * Access-Control-Request-Method) is answered 204 here, before the control API's admin token and before the
 * operations' credentials, as a browser sends neither on a preflight; it is not journaled or counted. Never
 * Access-Control-Allow-Credentials: the API authenticates with headers, not cookies.
 */
export function cors(origins: CorsOrigins): (req: Request, res: Response) => boolean {
  const anyOrigin = origins === "*";
  const allowed = new Set(anyOrigin ? [] : origins);
  /** Whether the request goes on: false once a preflight is answered. */
  return (req, res) => {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    const permitted = anyOrigin || allowed.has(origin);
    if (permitted) {
      res.setHeader("Access-Control-Allow-Origin", anyOrigin ? "*" : origin);
      res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
    // The answer depends on the Origin whenever the list is not `*`: caches must not share it across origins.
    if (!anyOrigin) res.setHeader("Vary", "Origin");
    const preflight = req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined;
    if (!preflight) return true;
    if (permitted) {
      res.setHeader("Access-Control-Allow-Methods", METHODS);
      res.setHeader("Access-Control-Allow-Headers", REQUEST_HEADERS);
      res.setHeader("Access-Control-Max-Age", MAX_AGE);
    }
    // An origin not on the list still gets its 204, without the headers: the browser then refuses the call.
    res.status(204).end();
    return false;
  };
}
