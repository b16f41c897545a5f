import { z } from "zod";
import { metadata } from "../shared/schema-parts.js";
import { GA_THRESHOLD_MAX, type Points, type QualificationRules } from "./qualification-rules.js";
import type { Tier } from "./tier-structure.js";

/**
 * The generally available form of a tier (the vendor's loyalties-v2.json at 65c33a7a, TierCreateRequest and Tier):
 * the points range nested under `qualification_rules.points`, and a third type, POINTS_AND_SEGMENT, that needs
 * both a range and a segment. It is served on the beta's URL beside the beta's form: the body says which form it
 * is, the store keeps one shape, and each request is answered in its own form, as docs/fidelity.md says in
 * "Which form a body is".
 */

/**
 * Whether a body is the generally available form: its qualification_rules hold `points`, or its type is
 * POINTS_AND_SEGMENT, and it holds neither of the beta's flat `min_value` and `max_value`. Every other body is the
 * beta's, validated and answered exactly as in 0.10.0: a body that mixes the two forms (valid in neither) keeps the
 * answer it had then (docs/fidelity.md, "Which form a body is").
 */
export function isGaTierBody(body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const rules = (body as { qualification_rules?: unknown }).qualification_rules;
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) return false;
  if (Object.hasOwn(rules, "min_value") || Object.hasOwn(rules, "max_value")) return false;
  return Object.hasOwn(rules, "points") || (rules as { type?: unknown }).type === "POINTS_AND_SEGMENT";
}

/** The GA file's thresholds: numbers from 0 to 1,000,000,000. An integer read exactly past 2^53 is simply too big. */
const threshold = z.preprocess(
  (value) => (typeof value === "bigint" ? Number(value) : value),
  z.number().min(0).max(GA_THRESHOLD_MAX),
);

const pointsSchema = z.strictObject({ min_value: threshold, max_value: threshold.optional() });
const segmentSchema = z.strictObject({ id: z.string().min(1) });

type GaRulesInput = {
  type: "POINTS" | "POINTS_AND_SEGMENT";
  points?: { min_value: number; max_value?: number | undefined } | null | undefined;
  segment?: { id: string } | null | undefined;
};

function issue(ctx: z.RefinementCtx, path: string[], message: string): void {
  ctx.addIssue({ code: "custom", path, message });
}

/**
 * TierQualificationRulesUpsert's conditions, one issue each in the beta's words: POINTS needs `points` and takes
 * no segment; POINTS_AND_SEGMENT needs both. A max_value below min_value is refused as the beta refuses it: the
 * GA file's schema does not say, and its points are a range like the beta's (docs/fidelity.md).
 */
function checkGaRules(rules: GaRulesInput, ctx: z.RefinementCtx): void {
  const points = rules.points ?? undefined;
  const hasSegment = rules.segment !== undefined && rules.segment !== null;
  if (points === undefined) issue(ctx, ["points"], `is required when type is ${rules.type}`);
  else if (
    typeof points.min_value === "number" &&
    typeof points.max_value === "number" &&
    points.max_value < points.min_value
  )
    issue(ctx, ["points", "max_value"], `should be >= min_value (${points.min_value})`);
  if (rules.type === "POINTS" && hasSegment) issue(ctx, ["segment"], "is not allowed when type is POINTS");
  if (rules.type === "POINTS_AND_SEGMENT" && !hasSegment)
    issue(ctx, ["segment"], "is required when type is POINTS_AND_SEGMENT");
}

/** The rules as the store keeps them: the beta's flat shape, the segment only where the type has one. */
function toStored(rules: GaRulesInput): QualificationRules {
  const range: { min_value: Points; max_value?: Points } = { min_value: rules.points?.min_value ?? 0 };
  if (rules.points?.max_value !== undefined) range.max_value = rules.points.max_value;
  return rules.type === "POINTS"
    ? { type: "POINTS", ...range }
    : { type: "POINTS_AND_SEGMENT", ...range, segment: { id: rules.segment?.id ?? "" } };
}

const gaRulesSchema = z
  .strictObject({
    type: z.enum(["POINTS", "POINTS_AND_SEGMENT"]),
    points: pointsSchema.nullable().optional(),
    segment: segmentSchema.nullable().optional(),
  })
  .superRefine(checkGaRules)
  .transform(toStored);

/**
 * The GA file's TierCreateRequest: strict at every level, as its `additionalProperties: false` says; `downgrade`
 * and `metadata` may be null (not given).
 */
export const gaTierBodySchema = z.strictObject({
  name: z.string().min(1).max(200),
  qualification_rules: gaRulesSchema,
  downgrade: z
    .strictObject({ type: z.enum(["INHERIT", "NO_DOWNGRADE"]) })
    .nullable()
    .optional(),
  metadata: metadata.nullable().optional(),
});

/**
 * The GA file's TierQualificationRules: `points` nested, `segment` only for POINTS_AND_SEGMENT. The GA form never
 * makes a SEGMENT tier (its types are POINTS and POINTS_AND_SEGMENT), so it never has one to answer.
 */
function gaRules(rules: QualificationRules) {
  if (rules.type === "SEGMENT") throw new Error("a SEGMENT tier has no generally available form");
  const points: { min_value: Points; max_value?: Points } = { min_value: rules.min_value };
  if (rules.max_value !== undefined) points.max_value = rules.max_value;
  return rules.type === "POINTS"
    ? { type: rules.type, points }
    : { type: rules.type, points, segment: rules.segment };
}

/** A stored tier as the GA file's Tier writes it: the same fields as the beta's, the rules nested. */
export function gaTierView(tier: Tier) {
  return {
    id: tier.id,
    tier_structure_id: tier.tier_structure_id,
    name: tier.name,
    qualification_rules: gaRules(tier.qualification_rules),
    downgrade: tier.downgrade,
    metadata: tier.metadata,
    created_at: tier.created_at,
    updated_at: tier.updated_at,
    object: tier.object,
  };
}
