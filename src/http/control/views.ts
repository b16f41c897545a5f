import type { z } from "zod";
import { campaignSchema } from "../../domain/campaigns/campaign.js";
import { customerSchema } from "../../domain/customers/customer.js";
import { earningRuleSchema } from "../../domain/earning-rules/earning-rule.js";
import { recordedEventSchema } from "../../domain/events/event.js";
import { eventSchemaSchema } from "../../domain/events/event-schema.js";
import { incentiveSchema } from "../../domain/incentives/incentive.js";
import { locationSchema } from "../../domain/locations/location.js";
import type { Project } from "../../domain/projects/project.js";
import { publicationSchema } from "../../domain/publications/publication.js";
import { segmentSchema } from "../../domain/segments/segment.js";
import { tierStructureSchema } from "../../domain/tiers/tier-structure.js";
import { voucherSchema } from "../../domain/vouchers/voucher.js";

/** What a view reads of a store: any RecordStore fits. */
interface ReadableStore {
  list(): object[];
  find(id: string): object | undefined;
  get(id: string): object;
}

export interface View {
  /** The path segment and the list's data_ref. */
  name: string;
  /** The name of its records' schema in the OpenAPI document (components/schemas). */
  component: string;
  /** Its records' schema, as stored. */
  schema: z.ZodType;
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
    schema: customerSchema,
    store: (p) => p.customers,
    filters: ["source_id", "name", "email", "phone"],
  },
  {
    name: "publications",
    component: "Publication",
    schema: publicationSchema,
    store: (p) => p.publications,
    filters: ["customer_id", "campaign_id", "voucher_id", "channel", "source_id"],
  },
  {
    name: "events",
    component: "RecordedEvent",
    schema: recordedEventSchema,
    store: (p) => p.events,
    filters: ["type", "customer_id"],
  },
  {
    name: "vouchers",
    component: "Voucher",
    schema: voucherSchema,
    store: (p) => p.vouchers,
    filters: ["code", "campaign_id", "holder_id", "type", "active"],
    alternateKey: (p, code) => p.vouchers.findByCode(code),
    narrow: narrowVouchers,
  },
  {
    name: "campaigns",
    component: "Campaign",
    // The stored campaign is the object before the transform that settles join_once.
    schema: campaignSchema.in,
    store: (p) => p.campaigns,
    filters: ["name", "campaign_type", "type", "active"],
    alternateKey: (p, name) => p.campaigns.findByName(name),
  },
  {
    name: "locations",
    component: "Location",
    schema: locationSchema,
    store: (p) => p.locations,
    filters: ["name"],
  },
  {
    name: "segments",
    component: "Segment",
    schema: segmentSchema,
    store: (p) => p.segments,
    filters: ["name"],
  },
  {
    name: "tier-structures",
    component: "TierStructure",
    schema: tierStructureSchema,
    store: (p) => p.tierStructures,
    filters: ["name"],
  },
  {
    name: "incentives",
    component: "Incentive",
    schema: incentiveSchema,
    store: (p) => p.incentives,
    filters: ["type", "status"],
  },
  {
    name: "earning-rules",
    component: "EarningRule",
    schema: earningRuleSchema,
    store: (p) => p.earningRules,
    filters: ["campaign_id", "event", "incentive_id"],
  },
  {
    name: "event-schemas",
    component: "EventSchema",
    schema: eventSchemaSchema,
    store: (p) => p.eventSchemas,
    filters: ["name"],
  },
];
