import { z } from "zod";
import { tierLimitExceeded, tierRangeOverlap } from "../errors.js";
import type { Project } from "../projects/project.js";
import { metadata } from "../shared/schema-parts.js";
import { gaTierBodySchema, gaTierView, isGaTierBody } from "./ga-form.js";
import {
  describeRange,
  type PointsRange,
  pointsRange,
  type QualificationRules,
  qualificationRulesSchema,
  rangesOverlap,
} from "./qualification-rules.js";
import { TIER_LIMIT_DEFAULT, type Tier, type TierStructure } from "./tier-structure.js";

/**
 * The body of POST /v2/loyalties/tier-structures/{id}/tiers in the beta's form (contract TierCreateRequest): strict
 * at every level. `downgrade` and `metadata` may be null, as the contract allows; null means "not given".
 */
const createTierBodySchema = z.strictObject({
  name: z.string().min(1).max(200),
  qualification_rules: qualificationRulesSchema,
  downgrade: z
    .strictObject({ type: z.enum(["INHERIT", "NO_DOWNGRADE"]) })
    .nullable()
    .optional(),
  metadata: metadata.nullable().optional(),
});

/** A tier to make, from a body of either form. */
export interface NewTier {
  name: string;
  qualification_rules: QualificationRules;
  downgrade?: { type: "INHERIT" | "NO_DOWNGRADE" } | null | undefined;
  metadata?: Record<string, unknown> | null | undefined;
}

/** Which form a request was written in, and so which form its answer takes. */
export type TierForm = "beta" | "ga";

/** A form's body schema as JSON Schema, for what describes the operation's input (the MCP server's tool). */
function jsonSchemaOf(schema: z.ZodType) {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest;
}

/**
 * Either form's body, told apart by isGaTierBody and validated by its own form's schema, with that schema's
 * problems as they are (400 invalid_payload naming the property, in the same words for both forms), rather than
 * a union's "should match one of the allowed shapes". Described as either form's schema (`anyOf`), for what
 * reads the input as JSON Schema.
 */
export const tierBodySchema = z
  .unknown()
  .transform((body, ctx): NewTier & { form: TierForm } => {
    const form: TierForm = isGaTierBody(body) ? "ga" : "beta";
    const parsed = (form === "ga" ? gaTierBodySchema : createTierBodySchema).safeParse(body);
    if (parsed.success) return { ...parsed.data, form };
    for (const problem of parsed.error.issues) ctx.addIssue(problem as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  })
  .meta({
    description:
      "A tier in the Loyalty v2 beta's form (flat min_value, max_value) or the generally available one (points)",
    anyOf: [jsonSchemaOf(createTierBodySchema), jsonSchemaOf(gaTierBodySchema)],
  });

/** The tiers a structure of the project may hold: its `tier_limit`, else the spec's 10. */
function tierLimitOf(project: Project): number {
  return project.settings.tier_limit ?? TIER_LIMIT_DEFAULT;
}

/** The first tier of the structure whose points range shares a point with `range`. */
function overlapping(structure: TierStructure, range: PointsRange) {
  for (const tier of structure.tiers) {
    const other = pointsRange(tier.qualification_rules);
    if (other && rangesOverlap(range, other)) return { tier, other };
  }
  return undefined;
}

/**
 * Creates a tier in a structure of the project, from a body of either form. The checks run in the order of
 * docs/reference/operations.md, "Creating a tier: the rules" (the body was validated at the edge): unknown
 * structure 404, unknown segment 404, tier limit 409, overlapping points range 403. Nothing is stored unless every
 * check passes.
 */
export function createTier(project: Project, structureId: string, body: NewTier): Tier {
  const structure = project.tierStructures.get(structureId);
  const rules = body.qualification_rules;
  if (rules.type !== "POINTS") project.segments.get(rules.segment.id);
  const limit = tierLimitOf(project);
  if (structure.tiers.length >= limit) throw tierLimitExceeded(structure.id, limit);
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

/** The tier as the request's form writes it: the beta's as stored, the GA's with its rules nested. */
export function tierAnswer(tier: Tier, form: TierForm) {
  return form === "ga" ? gaTierView(tier) : tier;
}
