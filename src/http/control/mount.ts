import type { RequestHandler, Router } from "express";
import { z } from "zod";
import { InputError, methodNotAllowed } from "../errors/http-errors.js";
import { jsonBody } from "../input/body.js";
import { streamedJsonBody } from "../input/streamed-json.js";
import type { ControlDeps } from "./deps.js";
import { type ControlRoute, paramsOf } from "./route-table.js";
import { DEFAULT_STATE_BODY_LIMIT } from "./state.js";

/**
 * Mounts the table's rows on the router, one Express route per path in the order the table first names it (a
 * literal segment such as `/webhooks/deliveries` comes before `/webhooks/{webhookId}` in the table). A method
 * the path does not take answers 405 with Allow, as the six operations do (FIDELITY.md, "Unknown route").
 */
export function mountControlRoutes(router: Router, routes: readonly ControlRoute[], deps: ControlDeps): void {
  const paths = new Map<string, ControlRoute[]>();
  for (const row of routes) paths.set(row.path, [...(paths.get(row.path) ?? []), row]);
  for (const [path, rows] of paths) {
    const entry = router.route(path.replace(/\{([^}]+)\}/g, ":$1"));
    const allowed: string[] = [];
    for (const row of rows) {
      entry[row.method](...handlersOf(row, deps));
      allowed.push(row.method.toUpperCase());
      if (row.method === "get") allowed.push("HEAD");
    }
    entry.all((req) => {
      throw methodNotAllowed(req.method, allowed);
    });
  }
}

function handlersOf(row: ControlRoute, deps: ControlDeps): RequestHandler[] {
  const reader =
    row.body === undefined
      ? []
      : row.bodyReader === "stream"
        ? streamedJsonBody(deps.stateBodyLimit ?? DEFAULT_STATE_BODY_LIMIT)
        : jsonBody(deps.bodyLimit);
  const schema = inputSchema(row);
  const handle: RequestHandler = (req, res) => {
    const params = req.params as Record<string, string>;
    let input = { params, query: req.query as unknown, body: req.body as unknown };
    if (schema) {
      const result = schema.safeParse(input);
      if (!result.success) throw new InputError(result.error, input);
      input = { ...input, ...(result.data as typeof input) };
    }
    const out = row.handle({ deps, ...input, req, res });
    if (row.stream) return out as Promise<void> | undefined;
    if (row.status === 204) res.status(204).end();
    else res.status(row.status ?? 200).json(out);
  };
  return [...reader, handle];
}

/** `{ params, query, body }` as one schema, so a problem's details name where it is (`body.set`, `query.limit`). */
function inputSchema(row: ControlRoute): z.ZodType | undefined {
  const body = row.parsedBy === "handler" ? undefined : row.body;
  if (row.query === undefined && body === undefined) return undefined;
  const params = z.object(Object.fromEntries(paramsOf(row.path).map((name) => [name, z.string()])));
  return z.object({
    params,
    ...(row.query !== undefined && { query: row.query }),
    ...(body !== undefined && { body }),
  });
}
