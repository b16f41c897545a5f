import type { Router } from "express";
import { z } from "zod";
import { pathPatternSchema } from "../../domain/shared/path-pattern.js";
import { getInput } from "../context.js";
import { route } from "../route.js";
import type { ControlDeps } from "./deps.js";
import { controlInput } from "./input.js";
import { listOf } from "./shapes.js";

/** A comma-separated list in one query parameter, or the parameter repeated. */
function listParam(item: z.ZodString) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(",")))
    .pipe(z.array(item).min(1));
}

const instant = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));

const journalQuery = z.object({
  params: z.object({ projectId: z.string() }),
  query: z.strictObject({
    method: listParam(z.string().regex(/^[A-Za-z]+$/, "must be an HTTP method")).optional(),
    path: pathPatternSchema.optional(),
    status: listParam(
      z.string().regex(/^([1-5]\d\d|[1-5]xx)$/i, "must be a status such as 404 or 4xx"),
    ).optional(),
    since: instant.optional(),
    until: instant.optional(),
    limit: z.coerce.number().int().min(1).max(100_000).optional(),
  }),
});

/**
 * The request journal: what the application sent to the project and what it got back, newest last. A test reads
 * it to assert on its application's calls; DELETE empties it between tests.
 */
export function requestRoutes(router: Router, { registry }: ControlDeps): void {
  route(router, "/projects/:projectId/requests", {
    get: [
      controlInput(journalQuery),
      (_req, res) => {
        const { params, query } = getInput<z.output<typeof journalQuery>>(res);
        const entries = registry.get(params.projectId).journal.list({
          ...(query.method && { methods: query.method }),
          ...(query.path !== undefined && { path: query.path }),
          ...(query.status && { statuses: query.status }),
          ...(query.since !== undefined && { since: query.since }),
          ...(query.until !== undefined && { until: query.until }),
          ...(query.limit !== undefined && { limit: query.limit }),
        });
        res.json(listOf("requests", entries));
      },
    ],
    delete: [
      (req, res) => {
        const deleted = registry.get(String(req.params.projectId)).journal.clear();
        res.json({ object: "requests", deleted });
      },
    ],
  });
}
