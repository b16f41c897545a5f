import { z } from "zod";
import { pathPatternSchema } from "../../emulation/path-pattern.js";
import { OPERATIONS } from "../operations/table.js";
import { clearedAnswer, journalEntryAnswer, listSchema } from "./answers.js";
import { type ControlRoute, row } from "./route-table.js";
import { listOf } from "./shapes.js";

/** A comma-separated list in one query parameter, or the parameter repeated. */
function listParam(item: z.ZodType<string, string>) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(",")))
    .pipe(z.array(item).min(1));
}

const OPERATION_NAMES: readonly string[] = OPERATIONS.map((operation) => operation.name);

const instant = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));

const journalQuery = z.strictObject({
  method: listParam(z.string().regex(/^[A-Za-z]+$/, "must be an HTTP method")).optional(),
  path: pathPatternSchema.optional(),
  operation: listParam(
    z.string().refine((name) => OPERATION_NAMES.includes(name), {
      message: `should be an operation's name: ${OPERATION_NAMES.join(", ")}`,
    }),
  ).optional(),
  status: listParam(
    z.string().regex(/^([1-5]\d\d|[1-5]xx)$/i, "must be a status such as 404 or 4xx"),
  ).optional(),
  since: instant.optional(),
  until: instant.optional(),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
});

/**
 * The request journal: what the application sent to the project and what it got back, newest last. A test reads
 * it to assert on its application's calls; DELETE empties it between tests.
 */
export const requestRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: "/projects/{projectId}/requests",
    tag: "journal",
    summary: "The request journal, oldest first",
    query: journalQuery,
    queryHelp: {
      method: "Comma-separated methods",
      path: "Exact path or pattern ({name} or * for one segment, ** for anything)",
      operation:
        "Comma-separated operation names (GET /__mock/operations); a request no operation's route takes matches none",
      status: "Comma-separated statuses or classes (404, 4xx)",
      since: "From this moment on the project's clock (ISO 8601)",
      until: "Up to this moment on the project's clock (ISO 8601)",
      limit: "Only the newest this many",
    },
    output: listSchema("requests", journalEntryAnswer),
    errors: { 400: ["invalid_payload"] },
    handle: ({ query, project }) => {
      const entries = project.journal.list({
        ...(query.method && { methods: query.method }),
        ...(query.path !== undefined && { path: query.path }),
        ...(query.operation && { operations: query.operation }),
        ...(query.status && { statuses: query.status }),
        ...(query.since !== undefined && { since: query.since }),
        ...(query.until !== undefined && { until: query.until }),
        ...(query.limit !== undefined && { limit: query.limit }),
      });
      return listOf("requests", entries);
    },
  }),
  row({
    method: "DELETE",
    path: "/projects/{projectId}/requests",
    tag: "journal",
    summary: "Empty the journal",
    output: clearedAnswer,
    handle: ({ project }) => ({
      object: "requests",
      deleted: project.journal.clear(),
    }),
  }),
];
