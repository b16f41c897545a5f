import type { IRouter, RequestHandler } from "express";
import type { ProjectRegistry } from "../domain/projects/registry.js";
import { requireAuth } from "./authenticate.js";
import { formBody, jsonBody } from "./body.js";
import { getAuth, getInput } from "./context.js";
import { methodNotAllowed } from "./errors.js";
import { expressPath, OPERATIONS, type Operation } from "./operations.js";
import { validate } from "./validate.js";

type Method = "get" | "post" | "put" | "patch" | "delete";

/**
 * Declares one path with the methods it answers; any other method on it is 405 with an Allow header, rather than
 * the 404 an unknown path gets (FIDELITY.md, "Unknown route").
 */
export function route(
  router: IRouter,
  path: string,
  methods: Partial<Record<Method, RequestHandler[]>>,
): void {
  const entry = router.route(path);
  const allowed: string[] = [];
  for (const [method, handlers] of Object.entries(methods) as [Method, RequestHandler[]][]) {
    entry[method](...handlers);
    allowed.push(method.toUpperCase());
    if (method === "get") allowed.push("HEAD");
  }
  entry.all((req) => {
    throw methodNotAllowed(req.method, req.originalUrl.split("?")[0] ?? req.path, allowed);
  });
}

export interface OperationDeps {
  registry: ProjectRegistry;
  bodyLimit: number;
}

/**
 * The handlers of one row: authenticate (first, the service's order), read the body, parse the input, then run the
 * use case and send what it returns. Refusals are thrown as ApiErrors for the one error handler.
 */
function handlers(row: Operation, { registry, bodyLimit }: OperationDeps): RequestHandler[] {
  const body = row.body === "json" ? jsonBody(bodyLimit) : row.body === "form" ? formBody(bodyLimit) : [];
  const schema = row.input;
  return [
    requireAuth(registry, row.auth),
    ...body,
    ...(schema ? [validate(schema)] : []),
    (req, res) => {
      const input = schema ? getInput(res) : { params: req.params, body: req.body };
      res.json(row.run({ registry, auth: getAuth(res), input }));
    },
  ];
}

/**
 * Declares every row of the operation table, v1 and v2 alike, on the given router (the app's own). The versions
 * share one table rather than living in sub-routers mounted at /v1 and /v2: a mounted router is a second dispatch
 * per request (its own matching, URL rewriting and restoring), measured at several per cent of a request's time
 * (README "Performance").
 */
export function mountOperations(
  router: IRouter,
  deps: OperationDeps,
  rows: readonly Operation[] = OPERATIONS,
): void {
  const byPath = new Map<string, Operation[]>();
  for (const row of rows) byPath.set(row.path, [...(byPath.get(row.path) ?? []), row]);
  for (const [path, sharing] of byPath) {
    const methods = Object.fromEntries(
      sharing.map((row) => [row.method.toLowerCase() as Method, handlers(row, deps)]),
    );
    route(router, expressPath(path), methods);
  }
}
