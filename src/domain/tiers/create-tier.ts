import { z } from "zod";
import { tierLimitExceeded, tierRangeOverlap } from "../errors.js";
import type { Project } from "../projects/project.js";
import { metadata } from "../shared/schema-parts.js";
import {
  describeRange,
  type PointsRange,
  pointsRange,
  qualificationRulesSchema,
  rangesOverlap,
} from "./qualification-rules.js";
import { MAX_TIERS_PER_STRUCTURE, type Tier, type TierStructure } from "./tier-structure.js";

/**
 * The body of POST /v2/loyalties/tier-structures/{id}/tiers (contract TierCreateRequest): strict at every level.
 * `downgrade` and `metadata` may be null, as the contract allows; null means "not given".
 */
export const createTierBodySchema = z.strictObject({
  name: z.string().min(1).max(200),
  qualification_rules: qualificationRulesSchema,
  downgrade: z
    .strictObject({ type: z.enum(["INHERIT", "NO_DOWNGRADE"]) })
    .nullable()
    .optional(),
  metadata: metadata.nullable().optional(),
});

export type CreateTierBody = z.output<typeof createTierBodySchema>;

/** The first tier of the structure whose points range shares a point with `range`. */
function overlapping(structure: TierStructure, range: PointsRange) {
  for (const tier of structure.tiers) {
    const other = pointsRange(tier.qualification_rules);
    if (other && rangesOverlap(range, other)) return { tier, other };
  }
  return undefined;
}

/**
 * Creates a tier in a structure of the project. The checks run in the order of docs/reference/operations.md,
 * "Creating a tier: the rules" (the body was validated at the edge): unknown structure 404, unknown segment 404, tier limit 409, overlapping points range 403. Nothing is
 * stored unless every check passes.
 */
export function createTier(project: Project, structureId: string, body: CreateTierBody): Tier {
  const structure = project.tierStructures.get(structureId);
  const rules = body.qualification_rules;
  if (rules.type === "SEGMENT") project.segments.get(rules.segment.id);
  if (structure.tiers.length >= MAX_TIERS_PER_STRUCTURE)
    throw tierLimitExceeded(structure.id, MAX_TIERS_PER_STRUCTURE);
  const range = pointsRange(rules);
  const clash = range && overlapping(structure, range);
  if (range && clash)
    throw tierRangeOverlap(describeRange(range), {
      id: clash.tier.id,
      name: clash.tier.name,
      range: describeRange(clash.other),
    });

  return project.tierStructures.addTier({
    id: project.ids.v2Id("lt"),
    tier_structure_id: structure.id,
    name: body.name,
    qualification_rules: rules,
    downgrade: body.downgrade ?? { type: "INHERIT" },
    metadata: body.metadata ?? {},
    created_at: project.clock.iso(),
    updated_at: null,
    object: "tier",
  });
}
