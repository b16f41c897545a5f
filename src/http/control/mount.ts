import type { Request, RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { EXACT_COLLECTIONS } from "../../domain/projects/project-document.js";
import { exactUnderKeys } from "../../platform/exact-json.js";
import { jsonBody } from "../input/body.js";
import { streamedJsonBody } from "../input/streamed-json.js";
import { parseInput } from "../input/validate.js";
import { type HttpMethod, route } from "../route.js";
import type { ControlDeps } from "./deps.js";
import { type ControlRoute, namesProject, paramsOf } from "./route-table.js";
import { DEFAULT_STATE_BODY_LIMIT } from "./state.js";

/**
 * Mounts the table's rows on the router with route() (http/route.ts), as the operations are: one route per path
 * in the order the table first names it (a literal segment such as `/webhooks/deliveries` comes before
 * `/webhooks/{webhookId}` in the table), a method the path does not take answering 405 with Allow.
 */
export function mountControlRoutes(router: Router, routes: readonly ControlRoute[], deps: ControlDeps): void {
  const paths = new Map<string, Partial<Record<HttpMethod, RequestHandler[]>>>();
  for (const row of routes) {
    const methods = paths.get(row.path) ?? {};
    methods[row.method] = handlersOf(row, deps);
    paths.set(row.path, methods);
  }
  for (const [path, methods] of paths) route(router, path, methods);
}

/**
 * A control body keeps integers past 2^53 exactly where a project document holds 64-bit fields (its tier
 * structures and incentives: a posted project, an imported state), and reads them as JSON.parse does elsewhere.
 */
const EXACT_BODY = { keep: (body: unknown) => exactUnderKeys(body, EXACT_COLLECTIONS) };

/**
 * The body reader, then one handler: the input parsed (the one parser, or the row's own `parse`), the project
 * a path under `/projects/{projectId}` names looked up (404 from the registry, for every such row here), the
 * row's handler called and its answer sent.
 */
function handlersOf(row: ControlRoute, deps: ControlDeps): RequestHandler[] {
  const reader =
    row.body === undefined
      ? []
      : row.bodyReader === "stream"
        ? streamedJsonBody(
            deps.stateBodyLimit ?? DEFAULT_STATE_BODY_LIMIT,
            EXACT_COLLECTIONS,
            deps.registry.sliceMs,
          )
        : jsonBody(deps.bodyLimit, EXACT_BODY);
  const schema = inputSchema(row);
  const parse = row.parse;
  const ofProject = namesProject(row.path);
  const send = (res: Response, out: unknown) => {
    if (row.status === 204) res.status(204).end();
    else res.status(row.status ?? 200).json(out);
  };
  type Input = { params: Record<string, string>; query: unknown; body: unknown };
  const handle = (req: Request, res: Response, input: Input) => {
    const project = ofProject ? deps.registry.get(String(input.params.projectId)) : undefined;
    const out = row.handle({ deps, ...input, project, req, res });
    if (row.stream) return out as Promise<void> | undefined;
    // A handler that builds a project answers once the build, run in slices, is installed.
    if (out instanceof Promise) return out.then((value) => send(res, value));
    send(res, out);
  };
  const parsed: RequestHandler = (req, res) => {
    let input: Input = { params: req.params as Record<string, string>, query: req.query, body: req.body };
    if (schema) input = { ...input, ...(parseInput(schema, input) as Input) };
    if (!parse) return handle(req, res, input);
    // A document is validated a slice at a time (a million cards); the project is looked up once it is.
    const body = parse(input.body, deps);
    if (body instanceof Promise) return body.then((value) => handle(req, res, { ...input, body: value }));
    return handle(req, res, { ...input, body });
  };
  return [...reader, parsed];
}

/** `{ params, query, body }` as one schema, so a problem's details name where it is (`body.set`, `query.limit`). */
function inputSchema(row: ControlRoute): z.ZodType | undefined {
  const body = row.parse ? undefined : row.body;
  if (row.query === undefined && body === undefined) return undefined;
  const params = z.object(Object.fromEntries(paramsOf(row.path).map((name) => [name, z.string()])));
  return z.object({
    params,
    ...(row.query !== undefined && { query: row.query }),
    ...(body !== undefined && { body }),
  });
}
