import type { Router } from "express";
import { z } from "zod";
import type { Project } from "../../domain/projects/project.js";
import { getInput } from "../context.js";
import { route } from "../route.js";
import type { ControlDeps } from "./deps.js";
import { controlInput } from "./input.js";
import { listOf } from "./shapes.js";

/** What a view reads of a store: any RecordStore fits. */
interface ReadableStore {
  list(): object[];
  find(id: string): object | undefined;
  get(id: string): object;
}

interface View {
  /** The path segment and the list's data_ref. */
  name: string;
  /** The schema of its records in the OpenAPI document (components/schemas). */
  component: string;
  store: (project: Project) => ReadableStore;
  /** Top-level fields a list may be filtered by (`?holder_id=cust_...`), compared as text. */
  filters: readonly string[];
  /** Another unique key a single record may be fetched by, besides its id. */
  alternateKey?: (project: Project, key: string) => object | undefined;
  /**
   * The records a list's filters can only match, read from an index instead of a scan of every record, in the
   * order a scan finds them; undefined when the filters name no index (or it cannot promise that order).
   */
  narrow?: (project: Project, filters: ReadonlyMap<string, string>) => object[] | undefined;
}

/**
 * A card by its code, or a customer's card: what the dashboard asks for each member it shows, which must not cost
 * a pass over a million-card project. A customer holding several cards is scanned for, as the index keeps the
 * order the customer got them rather than the order of the store.
 */
function narrowVouchers(project: Project, filters: ReadonlyMap<string, string>): object[] | undefined {
  const code = filters.get("code");
  if (code !== undefined) {
    const card = project.vouchers.findByCode(code);
    return card ? [card] : [];
  }
  const holder = filters.get("holder_id");
  if (holder === undefined || holder === "null") return undefined;
  const held = project.vouchers.heldBy(holder);
  return held.length <= 1 ? held : undefined;
}

/**
 * Read-only views of a project's data, in the service's shapes, for tests that assert on what an operation did
 * (a customer created, a card published, points earned, an event recorded) without exporting the whole state.
 */
export const VIEWS: readonly View[] = [
  {
    name: "customers",
    component: "Customer",
    store: (p) => p.customers,
    filters: ["source_id", "name", "email", "phone"],
  },
  {
    name: "publications",
    component: "Publication",
    store: (p) => p.publications,
    filters: ["customer_id", "campaign_id", "voucher_id", "channel", "source_id"],
  },
  { name: "events", component: "RecordedEvent", store: (p) => p.events, filters: ["type", "customer_id"] },
  {
    name: "vouchers",
    component: "Voucher",
    store: (p) => p.vouchers,
    filters: ["code", "campaign_id", "holder_id", "type", "active"],
    alternateKey: (p, code) => p.vouchers.findByCode(code),
    narrow: narrowVouchers,
  },
  {
    name: "campaigns",
    component: "Campaign",
    store: (p) => p.campaigns,
    filters: ["name", "campaign_type", "type", "active"],
    alternateKey: (p, name) => p.campaigns.findByName(name),
  },
  { name: "locations", component: "Location", store: (p) => p.locations, filters: ["name"] },
  { name: "segments", component: "Segment", store: (p) => p.segments, filters: ["name"] },
  { name: "tier-structures", component: "TierStructure", store: (p) => p.tierStructures, filters: ["name"] },
  { name: "incentives", component: "Incentive", store: (p) => p.incentives, filters: ["type", "status"] },
  {
    name: "earning-rules",
    component: "EarningRule",
    store: (p) => p.earningRules,
    filters: ["campaign_id", "event", "incentive_id"],
  },
  { name: "event-schemas", component: "EventSchema", store: (p) => p.eventSchemas, filters: ["name"] },
];

export const DEFAULT_VIEW_LIMIT = 100;

function listQuery(view: View) {
  const filters = Object.fromEntries(view.filters.map((field) => [field, z.string().optional()]));
  return z.object({
    params: z.object({ projectId: z.string() }),
    query: z.strictObject({
      ...filters,
      limit: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_VIEW_LIMIT),
      offset: z.coerce.number().int().min(0).default(0),
    }),
  });
}

function matches(record: object, filters: [string, string][]): boolean {
  return filters.every(([field, wanted]) => {
    const value = (record as Record<string, unknown>)[field];
    if (value === null || value === undefined) return wanted === "null";
    return typeof value !== "object" && String(value) === wanted;
  });
}

export function viewRoutes(router: Router, { registry }: ControlDeps): void {
  for (const view of VIEWS) {
    const schema = listQuery(view);
    route(router, `/projects/:projectId/${view.name}`, {
      get: [
        controlInput(schema),
        (_req, res) => {
          const { params, query } = getInput<{
            params: { projectId: string };
            query: Record<string, string | number | undefined>;
          }>(res);
          const { limit, offset, ...rest } = query;
          const filters = Object.entries(rest).filter(
            (entry): entry is [string, string] => entry[1] !== undefined,
          );
          const project = registry.get(params.projectId);
          const candidates = view.narrow?.(project, new Map(filters)) ?? view.store(project).list();
          const all = candidates.filter((record) => matches(record, filters));
          const start = Number(offset);
          res.json(
            listOf(view.name.replaceAll("-", "_"), all.slice(start, start + Number(limit)), all.length),
          );
        },
      ],
    });
    route(router, `/projects/:projectId/${view.name}/:recordId`, {
      get: [
        (req, res) => {
          const project = registry.get(String(req.params.projectId));
          const key = String(req.params.recordId);
          const store = view.store(project);
          res.json(store.find(key) ?? view.alternateKey?.(project, key) ?? store.get(key));
        },
      ],
    });
  }
}
