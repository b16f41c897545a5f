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

/** A path in the contract's form (`{name}` for a parameter) with the method it answers. */
interface PathTemplate {
  method: string;
  path: string;
}

/**
 * Finds which of `templates` a request names by its method and path (no query string): indexed by method and
 * segment count, then segment by segment, a `{parameter}` any non-empty segment; of several, those with the most
 * literal segments (`/vouchers/import` before `/vouchers/{code}`; all of them for look-alikes). HEAD is GET's.
 * `asRouted`: as Express's router matches by default, letters in any case and one trailing slash allowed.
 */
export function templateMatcher<T extends PathTemplate>(
  templates: readonly T[],
  { asRouted = false } = {},
): (method: string, path: string) => T[] {
  const fold = (segment: string) => (asRouted ? segment.toLowerCase() : segment);
  const index = new Map<string, { template: T; segments: string[]; literals: number }[]>();
  for (const template of templates) {
    const segments = template.path.split("/").slice(1);
    const key = `${template.method} ${segments.length}`;
    const literals = segments.filter((segment) => !segment.startsWith("{")).length;
    index.set(key, [...(index.get(key) ?? []), { template, segments: segments.map(fold), literals }]);
  }
  return (method, path) => {
    const sent = path.split("/").slice(1).map(fold);
    if (asRouted && sent.length > 1 && sent.at(-1) === "") sent.pop();
    const candidates = index.get(`${method === "HEAD" ? "GET" : method} ${sent.length}`) ?? [];
    const matching = candidates.filter(({ segments }) =>
      segments.every((segment, i) => sent[i] !== "" && (segment.startsWith("{") || segment === sent[i])),
    );
    let best = Number.NEGATIVE_INFINITY;
    for (const { literals } of matching) if (literals > best) best = literals;
    return matching.filter(({ literals }) => literals === best).map(({ template }) => template);
  };
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
