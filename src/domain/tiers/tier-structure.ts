import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { hexId, metadata, nullableTimestamp, timestamp } from "../shared/schema-parts.js";
import { qualificationRulesSchema } from "./qualification-rules.js";

export const MAX_TIERS_PER_STRUCTURE = 10;

const tierSchema = z.strictObject({
  id: hexId("lt"),
  tier_structure_id: z.string().optional(),
  name: z.string().min(1).max(200),
  qualification_rules: qualificationRulesSchema,
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
  tiers: z.array(tierSchema).max(MAX_TIERS_PER_STRUCTURE).default([]),
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
}
