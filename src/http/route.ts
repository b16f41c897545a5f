import type { IRouter, RequestHandler } from "express";
import { methodNotAllowed } from "./errors/http-errors.js";

/**
 * The HTTP methods a route of this server may take, written once: the operation table's rows, the control API's
 * rows and the clients' calls all spell a method so (`GET`), and only route() lowers it for Express.
 */
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A path as the contract writes it, `{campaignId}` for a parameter, as Express writes it: `:campaignId`. */
export function expressPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ":$1");
}

/** A path of the contract's form with its parameters filled in, each encoded as a path segment. */
export function filledPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
}

/**
 * The other way: the parameters of a path of the contract's form in a concrete path it routed (`/v1/locations/x`),
 * by segment, each decoded (a segment that is not valid percent-encoding is kept as sent).
 */
export function paramsIn(path: string, concrete: string): Record<string, string | undefined> {
  const sent = concrete.split("/");
  const params: Record<string, string | undefined> = {};
  for (const [index, segment] of path.split("/").entries()) {
    const name = /^\{([^}]+)\}$/.exec(segment)?.[1];
    if (name !== undefined) params[name] = decoded(sent[index] ?? "");
  }
  return params;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Declares one path (in the contract's form, `{name}` for a parameter) with the methods it answers, for the operations and the control API alike; any other method
 * on it is 405 with an Allow header, rather than the 404 an unknown path gets (docs/reference/operations.md, "Errors").
 * `otherMethod` may answer such a request first.
 */
export function route(
  router: IRouter,
  path: string,
  methods: Partial<Record<HttpMethod, RequestHandler[]>>,
  otherMethod?: RequestHandler,
): void {
  const entry = router.route(expressPath(path));
  const allowed: string[] = [];
  for (const [method, handlers] of Object.entries(methods) as [HttpMethod, RequestHandler[]][]) {
    entry[method.toLowerCase() as Lowercase<HttpMethod>](...handlers);
    allowed.push(method);
    if (method === "GET") allowed.push("HEAD");
  }
  if (otherMethod) entry.all(otherMethod);
  entry.all((req) => {
    throw methodNotAllowed(req.method, allowed);
  });
}
