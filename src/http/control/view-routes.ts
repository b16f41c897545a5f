import { z } from "zod";
import { listSchema } from "./answers.js";
import { type ControlRoute, row } from "./route-table.js";
import { listOf } from "./shapes.js";
import { VIEWS, type View } from "./views.js";

const DEFAULT_VIEW_LIMIT = 100;

function listQuery(view: View) {
  const filters = Object.fromEntries(view.filters.map((field) => [field, z.string().optional()]));
  return z.strictObject({
    ...filters,
    limit: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_VIEW_LIMIT),
    offset: z.coerce.number().int().min(0).default(0),
  });
}

function matches(record: object, filters: [string, string][]): boolean {
  return filters.every(([field, wanted]) => {
    const value = (record as Record<string, unknown>)[field];
    if (value === null || value === undefined) return wanted === "null";
    return typeof value !== "object" && String(value) === wanted;
  });
}

function viewRows(view: View): ControlRoute[] {
  const dataRef = view.collection;
  const words = view.name.replaceAll("-", " ");
  return [
    row({
      method: "get",
      path: `/projects/{projectId}/${view.name}`,
      tag: "views",
      summary: `The project's ${words}`,
      query: listQuery(view),
      queryHelp: {
        ...Object.fromEntries(
          view.filters.map((field) => [field, `Only records whose ${field} is this ("null" for none)`]),
        ),
        limit: `At most this many (default ${DEFAULT_VIEW_LIMIT})`,
        offset: "Skip this many",
      },
      output: listSchema(dataRef, view.schema),
      errors: { 400: ["invalid_payload"] },
      handle: ({ query, project }) => {
        const { limit, offset, ...rest } = query as Record<string, string | number | undefined>;
        const filters = Object.entries(rest).filter(
          (entry): entry is [string, string] => entry[1] !== undefined,
        );
        const candidates = view.narrow?.(project, new Map(filters)) ?? view.store(project).list();
        const all = candidates.filter((record) => matches(record, filters));
        const start = Number(offset);
        return listOf(dataRef, all.slice(start, start + Number(limit)), all.length);
      },
    }),
    row({
      method: "get",
      path: `/projects/{projectId}/${view.name}/{recordId}`,
      tag: "views",
      summary: `One of the project's ${words}, by id${view.alternateKey ? " (or code/name)" : ""}`,
      output: view.schema,
      handle: ({ params, project }) => {
        const key = String(params.recordId);
        const store = view.store(project);
        return store.find(key) ?? view.alternateKey?.(project, key) ?? store.get(key);
      },
    }),
  ];
}

/** Read-only views: a list (filters, limit, offset) and one record, for each of VIEWS. */
export const viewRoutes: readonly ControlRoute[] = VIEWS.flatMap(viewRows);
