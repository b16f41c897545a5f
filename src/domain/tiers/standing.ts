import { compareInt64, type Int64 } from "../shared/int64.js";
import type { Tier, TierStructure } from "./tier-structure.js";

/**
 * Where a number of points stands in a tier structure: the one place a member's tier is worked out. The customer
 * story the control API answers (a card's tier and the next one in each structure), the moment a customer reaches
 * a tier (the activity and the timeline), and the play's lines that read the story all take it from here, so the
 * dashboard never says "reached Silver" of a card the story puts in Bronze.
 */

/** A POINTS tier as a rung of its structure's ladder: its range as [low, end) in numbers, its min_value exact. */
export interface Rung {
  tier: Tier;
  low: number;
  /** One past `max_value`; Infinity for an open-ended tier. */
  end: number;
  /** `min_value` as the tier holds it, exact past 2^53. */
  from: Int64;
  /** When the tier was made (ms): a moment before it knows no such tier. */
  since: number;
}

/** Each structure version's ladder, made once: a structure is replaced whole on every change, never edited. */
const ladders = new WeakMap<TierStructure, readonly Rung[]>();

/** The structure's POINTS tiers by min_value (SEGMENT tiers hold no points range and are not on it). */
export function ladderOf(structure: TierStructure): readonly Rung[] {
  let ladder = ladders.get(structure);
  if (ladder === undefined) {
    ladder = structure.tiers
      .flatMap((tier) => {
        const rules = tier.qualification_rules;
        if (rules.type !== "POINTS") return [];
        const low = Number(rules.min_value);
        const end = rules.max_value === undefined ? Number.POSITIVE_INFINITY : Number(rules.max_value) + 1;
        const since = Date.parse(tier.created_at);
        return [{ tier, low, end, from: rules.min_value, since: Number.isNaN(since) ? 0 : since }];
      })
      .sort((a, b) => compareInt64(a.from, b.from));
    ladders.set(structure, ladder);
  }
  return ladder;
}

export interface Standing {
  /** The tier holding the points (of overlapping ones, the one starting highest); undefined when none does. */
  tier: Rung | undefined;
  /** The lowest tier starting above the points; undefined at the top. */
  next: Rung | undefined;
}

/**
 * The tier holding `points` in the structure, and the next one up, as the structure stood at `at` (ms): a tier
 * made later is not there yet, so a moment told afterwards says what was true then. Now, every tier is there.
 */
export function standingIn(
  structure: TierStructure,
  points: number,
  at = Number.POSITIVE_INFINITY,
): Standing {
  let tier: Rung | undefined;
  let next: Rung | undefined;
  for (const rung of ladderOf(structure)) {
    if (rung.since > at) continue;
    if (rung.low <= points && points < rung.end) tier = rung;
    else if (rung.low > points && next === undefined) next = rung;
  }
  return { tier, next };
}

/**
 * The tier a card reached when its points went from `before` to `after` at `at`: the tier holding `after`, when it
 * starts above the one holding `before` (or `before` was in none). Undefined when the card stayed where it was,
 * moved down, or left every tier.
 */
export function tierReached(
  structure: TierStructure,
  before: number,
  after: number,
  at: number,
): Rung | undefined {
  const now = standingIn(structure, after, at).tier;
  if (now === undefined) return undefined;
  const then = standingIn(structure, before, at).tier;
  if (then === undefined) return before < now.low ? now : undefined;
  return compareInt64(now.from, then.from) > 0 ? now : undefined;
}
