import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { hexId, metadata, nullableTimestamp, timestamp } from "../shared/schema-parts.js";

export const MAX_TIERS_PER_STRUCTURE = 10;

/**
 * Qualification rules as the spec states them: POINTS needs min_value (max_value optional, not below it, no
 * segment); SEGMENT needs segment.id and takes no range.
 */
export const qualificationRulesSchema = z
  .strictObject({
    type: z.enum(["POINTS", "SEGMENT"]),
    min_value: z.number().int().min(0).optional(),
    max_value: z.number().int().min(0).optional(),
    segment: z.strictObject({ id: z.string().min(1) }).optional(),
  })
  .superRefine((rules, ctx) => {
    if (rules.type === "POINTS") {
      if (rules.min_value === undefined)
        ctx.addIssue({ code: "custom", path: ["min_value"], message: "is required when type is POINTS" });
      if (rules.segment !== undefined)
        ctx.addIssue({ code: "custom", path: ["segment"], message: "is not allowed when type is POINTS" });
      if (rules.min_value !== undefined && rules.max_value !== undefined && rules.max_value < rules.min_value)
        ctx.addIssue({
          code: "custom",
          path: ["max_value"],
          message: "must be greater than or equal to min_value",
        });
    } else {
      if (rules.segment === undefined)
        ctx.addIssue({ code: "custom", path: ["segment"], message: "is required when type is SEGMENT" });
      for (const field of ["min_value", "max_value"] as const)
        if (rules[field] !== undefined)
          ctx.addIssue({ code: "custom", path: [field], message: "is not allowed when type is SEGMENT" });
    }
  });

export const tierSchema = z.strictObject({
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

export type TierInput = z.output<typeof tierSchema>;
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
  constructor(structures: Iterable<TierStructure> = []) {
    super("vl_tier_structure", structures);
  }
}
