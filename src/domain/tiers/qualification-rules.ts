import { z } from "zod";
import { type Int64, int64 } from "../shared/int64.js";

/** How members qualify for a tier: a range of points, or membership of a segment. */
export type QualificationRules =
  | { type: "POINTS"; min_value: Int64; max_value?: Int64 }
  | { type: "SEGMENT"; segment: { id: string } };

/** A closed or open-ended points range; an absent max_value has no upper bound (Infinity). */
export interface PointsRange {
  min: Int64;
  max: Int64;
}

type RulesInput = {
  type: "POINTS" | "SEGMENT";
  min_value?: Int64 | undefined;
  max_value?: Int64 | undefined;
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
 * property the caller sent comes before the one about a property they left out.
 */
function checkRules(rules: RulesInput, ctx: z.RefinementCtx): void {
  const hasSegment = rules.segment !== undefined && rules.segment !== null;
  if (rules.type === "POINTS") {
    if (rules.max_value !== undefined && rules.min_value === undefined)
      issue(ctx, "max_value", "is not allowed without min_value");
    else if (rules.min_value === undefined) issue(ctx, "min_value", "is required when type is POINTS");
    if (hasSegment) issue(ctx, "segment", "is not allowed when type is POINTS");
    // Compared only when both are integers: the int64 fields have said what is wrong with anything else, and an
    // object (`{"valueOf": 1, "toString": 1}`) has no value to compare.
    const { min_value: min, max_value: max } = rules;
    if (isInteger(min) && isInteger(max) && max < min)
      issue(ctx, "max_value", `should be >= min_value (${min})`);
    return;
  }
  for (const field of ["min_value", "max_value"] as const)
    if (rules[field] !== undefined) issue(ctx, field, "is not allowed when type is SEGMENT");
  if (!hasSegment) issue(ctx, "segment", "is required when type is SEGMENT");
}

/** Keeps only what the type uses: `segment: null` on a POINTS tier (the contract allows it) is not stored. */
function normalize(rules: RulesInput): QualificationRules {
  if (rules.type === "SEGMENT") return { type: "SEGMENT", segment: { id: rules.segment?.id ?? "" } };
  const points: QualificationRules = { type: "POINTS", min_value: rules.min_value ?? 0 };
  if (rules.max_value !== undefined) points.max_value = rules.max_value;
  return points;
}

/**
 * qualification_rules as the spec states them: POINTS needs min_value >= 0 (max_value optional, not below it,
 * never alone, no segment); SEGMENT needs segment.id and takes no range. Strict at every level. The same schema
 * reads fixtures and request bodies, so a fixture cannot hold a tier the API would refuse.
 */
export const qualificationRulesSchema = z
  .strictObject({
    type: z.enum(["POINTS", "SEGMENT"]),
    min_value: int64(0).optional(),
    max_value: int64(0).optional(),
    segment: z
      .strictObject({ id: z.string().min(1) })
      .nullable()
      .optional(),
  })
  .superRefine(checkRules)
  .transform(normalize);

/** The points range of a POINTS tier; SEGMENT tiers have none. */
export function pointsRange(rules: QualificationRules): PointsRange | undefined {
  if (rules.type !== "POINTS") return undefined;
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
