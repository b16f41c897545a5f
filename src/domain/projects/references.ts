import type { z } from "zod";
import type { KeySet } from "../record-store.js";
import type { Int64 } from "../shared/int64.js";
import { rangesOverlap } from "../tiers/qualification-rules.js";
import { ID_COLLECTIONS } from "./collections.js";

type Ctx = z.RefinementCtx;
type Path = (string | number)[];

interface Doc {
  api_keys: { app_id: string }[];
  tokens: { access_token: string }[];
  locations: { id: string }[];
  campaigns: { id: string; name: string }[];
  vouchers: { id: string; code: string; campaign_id: string; holder_id?: string | null | undefined }[];
  customers: { id: string; source_id: string | null }[];
  publications: {
    id: string;
    customer_id: string;
    campaign_id: string;
    voucher_id: string;
    source_id: string | null;
  }[];
  segments: { id: string; customer_ids: string[] }[];
  tier_structures: {
    id: string;
    tiers: {
      id: string;
      tier_structure_id?: string | undefined;
      qualification_rules: { type: string; min_value?: Int64; max_value?: Int64; segment?: { id: string } };
    }[];
  }[];
  incentives: { id: string }[];
  earning_rules: { id: string; campaign_id: string; event: string; incentive_id: string | null }[];
  event_schemas: { id: string; name: string }[];
  events: { id: string; customer_id: string }[];
  webhooks: { id: string }[];
}

function issue(ctx: Ctx, path: Path, message: string): void {
  ctx.addIssue({ code: "custom", path, message });
}

/**
 * The set of a collection's values of a field that a store built from exactly these records holds already (its
 * ids, or a unique index): `undefined` where there is none. A restart passes the stores of the project it built,
 * so a million cards' ids and codes are not put in a second set each.
 */
export type KnownKeys = (collection: string, field: string) => KeySet | undefined;

interface Seen {
  has(value: unknown): boolean;
}

/** Reports every value of `field` that occurs twice in a collection; returns the values seen. */
function unique<T>(
  ctx: Ctx,
  collection: string,
  items: T[],
  field: keyof T & string,
  known?: KnownKeys,
): Seen {
  const set = known?.(collection, field);
  if (set) {
    // The store holds one entry per distinct value: as many as there are values means none occurs twice. Any
    // other count falls through to the scan, which names the duplicate.
    let count = 0;
    for (let index = 0; index < items.length; index++) {
      const value = (items[index] as T)[field];
      if (value !== null && value !== undefined) count++;
    }
    if (count === set.size) return set as Seen;
  }
  const seen = new Set<unknown>();
  for (let index = 0; index < items.length; index++) {
    const value = (items[index] as T)[field];
    if (value === null || value === undefined) continue;
    if (seen.has(value)) issue(ctx, [collection, index, field], `duplicate ${field} ${String(value)}`);
    seen.add(value);
  }
  return seen;
}

/** Whether `id` (when set) is one of `ids`; the path is built only for a problem (a million cards, no arrays). */
function mustExist(ctx: Ctx, ids: Seen, id: string | null | undefined, path: () => Path, what: string): void {
  if (id !== null && id !== undefined && !ids.has(id))
    issue(ctx, path(), `no ${what} with id ${id} in this project`);
}

/**
 * Checks that a project document hangs together: ids unique, every reference pointing at something in the same
 * project, tier ranges disjoint. The loader reports each problem with its JSON path, like a schema error.
 */
export function checkReferences(doc: Doc, ctx: Ctx, known?: KnownKeys): void {
  unique(ctx, "api_keys", doc.api_keys, "app_id");
  unique(ctx, "tokens", doc.tokens, "access_token");
  // The ids each collection holds, as its uniqueness check saw them: one set per collection, built once.
  const ids = new Map<string, Seen>();
  for (const name of ID_COLLECTIONS)
    ids.set(name, unique(ctx, name, doc[name] as { id: string }[], "id", known));
  unique(ctx, "campaigns", doc.campaigns, "name");
  unique(ctx, "vouchers", doc.vouchers, "code", known);
  unique(ctx, "customers", doc.customers, "source_id", known);
  unique(ctx, "publications", doc.publications, "source_id", known);
  unique(ctx, "event_schemas", doc.event_schemas, "name");

  const campaigns = ids.get("campaigns") as Seen;
  const customers = ids.get("customers") as Seen;
  const vouchers = ids.get("vouchers") as Seen;
  const segments = ids.get("segments") as Seen;
  const incentives = ids.get("incentives") as Seen;
  const eventNames = new Set(doc.event_schemas.map((schema) => schema.name));

  for (let i = 0; i < doc.vouchers.length; i++) {
    const voucher = doc.vouchers[i] as Doc["vouchers"][number];
    mustExist(ctx, campaigns, voucher.campaign_id, () => ["vouchers", i, "campaign_id"], "campaign");
    mustExist(ctx, customers, voucher.holder_id, () => ["vouchers", i, "holder_id"], "customer");
  }
  doc.publications.forEach((publication, i) => {
    mustExist(ctx, customers, publication.customer_id, () => ["publications", i, "customer_id"], "customer");
    mustExist(ctx, campaigns, publication.campaign_id, () => ["publications", i, "campaign_id"], "campaign");
    mustExist(ctx, vouchers, publication.voucher_id, () => ["publications", i, "voucher_id"], "voucher");
  });
  doc.segments.forEach((segment, i) => {
    segment.customer_ids.forEach((id, j) => {
      mustExist(ctx, customers, id, () => ["segments", i, "customer_ids", j], "customer");
    });
  });
  doc.tier_structures.forEach((structure, i) => {
    const ranges: { min: Int64; max: Int64; index: number }[] = [];
    structure.tiers.forEach((tier, j) => {
      const path: Path = ["tier_structures", i, "tiers", j];
      if (tier.tier_structure_id !== undefined && tier.tier_structure_id !== structure.id)
        issue(
          ctx,
          [...path, "tier_structure_id"],
          `must be ${structure.id}, the structure that holds the tier`,
        );
      const rules = tier.qualification_rules;
      mustExist(
        ctx,
        segments,
        rules.segment?.id,
        () => [...path, "qualification_rules", "segment", "id"],
        "segment",
      );
      if (rules.type !== "POINTS" || rules.min_value === undefined) return;
      const range = { min: rules.min_value, max: rules.max_value ?? Number.POSITIVE_INFINITY, index: j };
      const clash = ranges.find((other) => rangesOverlap(other, range));
      if (clash) issue(ctx, [...path, "qualification_rules"], `overlaps the range of tier ${clash.index}`);
      ranges.push(range);
    });
  });
  doc.earning_rules.forEach((rule, i) => {
    mustExist(ctx, campaigns, rule.campaign_id, () => ["earning_rules", i, "campaign_id"], "campaign");
    mustExist(ctx, incentives, rule.incentive_id, () => ["earning_rules", i, "incentive_id"], "incentive");
    if (!eventNames.has(rule.event))
      issue(ctx, ["earning_rules", i, "event"], `no custom event named ${rule.event} in event_schemas`);
  });
  doc.events.forEach((event, i) => {
    mustExist(ctx, customers, event.customer_id, () => ["events", i, "customer_id"], "customer");
  });
}
