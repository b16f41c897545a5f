import type { IRouter, RequestHandler } from "express";
import { methodNotAllowed } from "./errors/http-errors.js";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/**
 * Declares one path with the methods it answers, for the operations and the control API alike; any other method
 * on it is 405 with an Allow header, rather than the 404 an unknown path gets (docs/reference/operations.md, "Errors").
 * `otherMethod` may answer such a request first.
 */
export function route(
  router: IRouter,
  path: string,
  methods: Partial<Record<Method, RequestHandler[]>>,
  otherMethod?: RequestHandler,
): void {
  const entry = router.route(path);
  const allowed: string[] = [];
  for (const [method, handlers] of Object.entries(methods) as [Method, RequestHandler[]][]) {
    entry[method](...handlers);
    allowed.push(method.toUpperCase());
    if (method === "get") allowed.push("HEAD");
  }
  if (otherMethod) entry.all(otherMethod);
  entry.all((req) => {
    throw methodNotAllowed(req.method, allowed);
  });
}
