import type { RecordedEvent } from "../../../domain/events/event.js";
import type { Project } from "../../../domain/projects/project.js";
import { tierReached } from "../../../domain/tiers/standing.js";

type Structure = ReturnType<Project["tierStructures"]["list"]>[number];

/** A tier an event took one of its cards into. */
export interface TierMoment {
  structure: Structure;
  tier: string;
  cardId: string;
}

/**
 * The tiers an event took cards into, in the structures given (the audience's), from the points each card had
 * before the event's first earning for it and after its last (an event that pays a card twice, two rules, is one
 * step), as the structures stood at the event's time. The card's tier comes from domain/tiers/standing.ts, as the
 * customer story's does; an earning without `points_after` (an event an earlier version recorded) tells nothing.
 */
export function tiersReachedBy(event: RecordedEvent, structures: readonly Structure[]): TierMoment[] {
  const at = Date.parse(event.created_at);
  const spans = new Map<string, { before: number; after: number }>();
  for (const earning of event.earned) {
    if (earning.points_after === undefined) continue;
    const span = spans.get(earning.voucher_id);
    if (span === undefined)
      spans.set(earning.voucher_id, {
        before: earning.points_after - earning.points,
        after: earning.points_after,
      });
    else span.after = earning.points_after;
  }
  const moments: TierMoment[] = [];
  for (const [cardId, { before, after }] of spans)
    for (const structure of structures) {
      const reached = tierReached(structure, before, after, Number.isNaN(at) ? Number.POSITIVE_INFINITY : at);
      if (reached !== undefined) moments.push({ structure, tier: reached.tier.name, cardId });
    }
  return moments;
}

/**
 * The moments as sentences naming the customer ("Zofia Lis reached Silver"), each once; the structure is named
 * too when the audience sees more than one ("Zofia Lis reached Silver in Demo Tiers").
 */
export function reachedSentences(
  who: string,
  moments: readonly TierMoment[],
  structuresShown: number,
): string[] {
  const said = moments.map(({ structure, tier }) =>
    structuresShown > 1 ? `${who} reached ${tier} in ${structure.name}` : `${who} reached ${tier}`,
  );
  return [...new Set(said)];
}
