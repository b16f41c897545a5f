import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { hexId, metadata, nullableTimestamp, timestamp } from "../shared/schema-parts.js";
import { storedQualificationRulesSchema } from "./qualification-rules.js";

/** Tiers a structure may hold unless its project sets `tier_limit` (the spec's 10; the GA file says 10 too). */
export const TIER_LIMIT_DEFAULT = 10;
/** The most a project's `tier_limit` may allow. */
export const TIER_LIMIT_MAX = 100;

const tierSchema = z.strictObject({
  id: hexId("lt"),
  tier_structure_id: z.string().optional(),
  name: z.string().min(1).max(200),
  qualification_rules: storedQualificationRulesSchema,
  downgrade: z.strictObject({ type: z.enum(["INHERIT", "NO_DOWNGRADE"]) }).default({ type: "INHERIT" }),
  metadata: metadata.default({}),
  created_at: timestamp,
  updated_at: nullableTimestamp.default(null),
  object: z.literal("tier").default("tier"),
});

type TierInput = z.output<typeof tierSchema>;
export type Tier = TierInput & { tier_structure_id: string };

export const tierStructureSchema = z.strictObject({
  id: hexId("lts"),
  name: z.string().min(1).max(200),
  created_at: timestamp,
  updated_at: nullableTimestamp.default(null),
  object: z.literal("tier_structure").default("tier_structure"),
  // The project's own limit is checked against the document's settings (collection.ts's check).
  tiers: z.array(tierSchema).max(TIER_LIMIT_MAX).default([]),
});

export type TierStructure = Omit<z.output<typeof tierStructureSchema>, "tiers"> & { tiers: Tier[] };

export class TierStructureStore extends RecordStore<TierStructure> {
  /** Appends a tier to its structure (a 404 when the structure is unknown); the rules are the caller's. */
  /** A new version of the structure, not a push into the stored one: every write goes through `put`. */
  addTier(tier: Tier): Tier {
    const structure = this.get(tier.tier_structure_id);
    this.put({ ...structure, tiers: [...structure.tiers, tier] });
    return tier;
  }

  /** The most tiers any structure holds: a project's `tier_limit` may not go below it. */
  mostTiers(): number {
    let most = 0;
    for (const structure of this.values()) most = Math.max(most, structure.tiers.length);
    return most;
  }
}
