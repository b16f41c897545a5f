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

/**
 * One page of a store's records that match the filters, and how many match, from one walk of the records as
 * stored: a million-card project is neither copied nor completed (two digests a card) to answer twenty of them.
 * Filters name top-level fields a record holds as stored (a card's derived parts are never filtered on), and only
 * the page is completed; with no filter the walk stops at the page's end, as the count is the store's size.
 */
function pageOf(store: ReturnType<View["store"]>, filters: [string, string][], start: number, limit: number) {
  const page: object[] = [];
  let total = 0;
  for (const record of store.storedValues()) {
    if (filters.length > 0 && !matches(record, filters)) continue;
    if (total >= start && page.length < limit) page.push(store.completed?.(record) ?? record);
    total++;
    if (filters.length === 0 && page.length === limit) break;
  }
  return { page, total: filters.length === 0 ? store.size : total };
}

function viewRows(view: View): ControlRoute[] {
  const dataRef = view.collection;
  const words = view.name.replaceAll("-", " ");
  return [
    row({
      method: "GET",
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
        const start = Number(offset);
        const narrowed = view.narrow?.(project, new Map(filters));
        if (narrowed) {
          const all = narrowed.filter((record) => matches(record, filters));
          return listOf(dataRef, all.slice(start, start + Number(limit)), all.length);
        }
        const { page, total } = pageOf(view.store(project), filters, start, Number(limit));
        return listOf(dataRef, page, total);
      },
    }),
    row({
      method: "GET",
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
