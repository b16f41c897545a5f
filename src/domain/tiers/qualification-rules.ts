import { z } from "zod";
import { type Int64, int64 } from "../shared/int64.js";

/**
 * A tier's points threshold. The beta's are integers up to 2^63-1 (exact past 2^53, as bigints); the generally
 * available form's are any number from 0 to 1,000,000,000, fractions included (its TierQualificationRulesPoints).
 */
export type Points = Int64;

/**
 * How members qualify for a tier: a range of points, membership of a segment (the beta), or both (the generally
 * available POINTS_AND_SEGMENT). Stored in the beta's flat shape whichever form made it, one store for two
 * answers (ga-form.ts writes the nested one): docs/fidelity.md, "Which form a body is".
 */
export type QualificationRules =
  | { type: "POINTS"; min_value: Points; max_value?: Points }
  | { type: "SEGMENT"; segment: { id: string } }
  | { type: "POINTS_AND_SEGMENT"; min_value: Points; max_value?: Points; segment: { id: string } };

/** A closed or open-ended points range; an absent max_value has no upper bound (Infinity). */
export interface PointsRange {
  min: Points;
  max: Points;
}

type RulesInput = {
  type: "POINTS" | "SEGMENT" | "POINTS_AND_SEGMENT";
  min_value?: Points | undefined;
  max_value?: Points | undefined;
  segment?: { id: string } | null | undefined;
};

/** An int64 field's value that passed its type check: only those are compared. */
export const isInteger = (value: unknown): value is Int64 =>
  typeof value === "number" || typeof value === "bigint";

function issue(ctx: z.RefinementCtx, field: string, message: string): void {
  ctx.addIssue({ code: "custom", path: [field], message });
}

/**
 * The spec's rules for qualification_rules, one issue per broken rule so that `details` names exactly what is
 * wrong. The order decides which one a request breaking several is told about: the rule that points at the
 * property the caller sent comes before the one about a property they left out. A stored POINTS_AND_SEGMENT tier
 * (made in the generally available form) holds a range as POINTS does and a segment as SEGMENT does.
 */
function checkRules(rules: RulesInput, ctx: z.RefinementCtx): void {
  const hasSegment = rules.segment !== undefined && rules.segment !== null;
  if (rules.type === "POINTS" || rules.type === "POINTS_AND_SEGMENT") {
    if (rules.max_value !== undefined && rules.min_value === undefined)
      issue(ctx, "max_value", "is not allowed without min_value");
    else if (rules.min_value === undefined) issue(ctx, "min_value", `is required when type is ${rules.type}`);
    if (rules.type === "POINTS" && hasSegment) issue(ctx, "segment", "is not allowed when type is POINTS");
    // Compared only when both are numbers: the fields have said what is wrong with anything else, and an object
    // (`{"valueOf": 1, "toString": 1}`) has no value to compare.
    const { min_value: min, max_value: max } = rules;
    if (isInteger(min) && isInteger(max) && max < min)
      issue(ctx, "max_value", `should be >= min_value (${min})`);
    if (rules.type === "POINTS_AND_SEGMENT" && !hasSegment)
      issue(ctx, "segment", "is required when type is POINTS_AND_SEGMENT");
    return;
  }
  for (const field of ["min_value", "max_value"] as const)
    if (rules[field] !== undefined) issue(ctx, field, "is not allowed when type is SEGMENT");
  if (!hasSegment) issue(ctx, "segment", "is required when type is SEGMENT");
}

/** Keeps only what the type uses: `segment: null` on a POINTS tier (the contract allows it) is not stored. */
function normalize(rules: RulesInput): QualificationRules {
  const segment = { id: rules.segment?.id ?? "" };
  if (rules.type === "SEGMENT") return { type: "SEGMENT", segment };
  const range: { min_value: Points; max_value?: Points } = { min_value: rules.min_value ?? 0 };
  if (rules.max_value !== undefined) range.max_value = rules.max_value;
  return rules.type === "POINTS"
    ? { type: "POINTS", ...range }
    : { type: "POINTS_AND_SEGMENT", ...range, segment };
}

const segmentReference = z
  .strictObject({ id: z.string().min(1) })
  .nullable()
  .optional();

/**
 * qualification_rules as the spec states them for the beta's requests: POINTS needs min_value >= 0 (max_value
 * optional, not below it, never alone, no segment); SEGMENT needs segment.id and takes no range. Strict at every
 * level. The beta's answers are exactly 0.10.0's: this schema is unchanged by the generally available form.
 */
export const qualificationRulesSchema = z
  .strictObject({
    type: z.enum(["POINTS", "SEGMENT"]),
    min_value: int64(0).optional(),
    max_value: int64(0).optional(),
    segment: segmentReference,
  })
  .superRefine(checkRules)
  .transform(normalize);

/** The generally available form's thresholds stop here (its TierQualificationRulesPointsUpsert). */
export const GA_THRESHOLD_MAX = 1_000_000_000;

const int64Points = int64(0);

/**
 * A stored threshold: the beta's integer (to 2^63-1, exact), or a fraction from 0 to 1,000,000,000, which only the
 * generally available form makes. Anything else is refused as the beta's int64 field refuses it (`should be
 * number`, `should be integer`, `should be >= 0`).
 */
const storedPoints = z
  .custom<Points>()
  .superRefine((value, ctx) => {
    if (typeof value === "number" && !Number.isInteger(value) && value >= 0 && value <= GA_THRESHOLD_MAX)
      return;
    const parsed = int64Points.safeParse(value);
    if (!parsed.success)
      for (const problem of parsed.error.issues) ctx.addIssue(problem as Parameters<typeof ctx.addIssue>[0]);
  })
  .transform((value) =>
    typeof value === "number" && !Number.isInteger(value) ? value : int64Points.parse(value),
  )
  .meta({ type: "number", minimum: 0 });

/**
 * qualification_rules as a tier is stored (fixtures, the state file, an import): the beta's, plus the generally
 * available POINTS_AND_SEGMENT in the same flat shape, and the fractional thresholds that form accepts. Every tier
 * a request of either form can make reads back, and none a request would refuse.
 */
export const storedQualificationRulesSchema = z
  .strictObject({
    type: z.enum(["POINTS", "SEGMENT", "POINTS_AND_SEGMENT"]),
    min_value: storedPoints.optional(),
    max_value: storedPoints.optional(),
    segment: segmentReference,
  })
  .superRefine(checkRules)
  .transform(normalize);

/** The points range of a tier with one (POINTS, POINTS_AND_SEGMENT); SEGMENT tiers have none. */
export function pointsRange(rules: QualificationRules): PointsRange | undefined {
  if (rules.type === "SEGMENT") return undefined;
  return { min: rules.min_value, max: rules.max_value ?? Number.POSITIVE_INFINITY };
}

/** Two ranges overlap when neither ends before the other begins (ends are inclusive). */
export function rangesOverlap(a: PointsRange, b: PointsRange): boolean {
  return a.min <= b.max && b.min <= a.max;
}

/** `1000-4999`, or `5000 and above` for an open-ended range. */
export function describeRange(range: PointsRange): string {
  return range.max === Number.POSITIVE_INFINITY ? `${range.min} and above` : `${range.min}-${range.max}`;
}
