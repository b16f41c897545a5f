import { type ReadonlyTally, SortedTally } from "../../../domain/figures/sorted-tally.js";
import type { Project } from "../../../domain/projects/project.js";
import { addInt64, fractionBetween, type Int64, subtractInt64 } from "../../../domain/shared/int64.js";
import { ladderOf, standingIn } from "../../../domain/tiers/standing.js";
import { audienceStructures } from "./audience.js";
import { timelineOf } from "./timeline.js";

/**
 * The numbers of the dashboard's audience views (docs/guide/dashboard.md), on the project's own clock, so advancing
 * the clock moves them: the program at a glance and one customer's story. They are read from the figures the
 * project keeps up to date as its records change (domain/figures), never from a pass over every card, so a view
 * costs what it shows at any size. Sums are exact past 2^53 (written as digits, as 64-bit fields are).
 */

type Card = ReturnType<Project["figures"]["cardsOf"]>[number];
type Structure = ReturnType<Project["tierStructures"]["list"]>[number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const pointsOf = (card: Card) => Number(card.loyalty_card?.points ?? 0);
const balanceOf = (card: Card) => Number(card.loyalty_card?.balance ?? 0);

/**
 * The buckets of a series ending at the project's `now`: hours when what it shows spans two days or less, days up
 * to 60 of them, and past that as many whole days each as keep it to 60 buckets: the whole of a program's history
 * shows, however long ago it began (the demo's few weeks of it, months after they were written).
 */
function bucketsFor(first: number, now: number): { size: number; starts: number[] } {
  const span = Math.max(now - first, HOUR);
  const size = span <= 2 * DAY ? HOUR : Math.ceil(span / (60 * DAY)) * DAY;
  const end = Math.floor(now / size) * size;
  const count = Math.min(60, Math.max(2, (end - Math.floor(first / size) * size) / size + 1));
  return { size, starts: Array.from({ length: count }, (_, i) => end - (count - 1 - i) * size) };
}

/**
 * Points earned over time, as each bucket ends: earned in it, and the total issued by then. Earnings after `now`
 * (the clock moved back) are not yet past, and are left out; what was there before the first bucket (fixture
 * balances, older earnings) is the total now less what the buckets show.
 */
function series(earnings: ReadonlyTally, totalNow: Int64, now: number) {
  const oldest = earnings.min();
  const { size, starts } = bucketsFor(oldest !== undefined && oldest <= now ? oldest : now, now);
  const upTo = (at: number, inclusive: boolean) => earnings.below(at, inclusive).sum;
  let before = upTo(starts[0] ?? now, false);
  let total = subtractInt64(totalNow, subtractInt64(upTo(now, true), before));
  return starts.map((start) => {
    const end = start + size;
    const upToEnd = end > now ? upTo(now, true) : upTo(end, false);
    const earned = subtractInt64(upToEnd, before);
    before = upToEnd;
    total = addInt64(total, earned);
    return { at: new Date(start).toISOString(), earned, total };
  });
}

/** Members within each POINTS tier of a structure (a card counts in every tier holding it), and in none. */
function distributionIn(structure: Structure, points: ReadonlyTally, members: number) {
  // In the structure's order, each with its range as the ladder has it.
  const rungs = new Map(ladderOf(structure).map((rung) => [rung.tier, rung]));
  const ranged = structure.tiers.flatMap((tier) => {
    const rung = rungs.get(tier);
    return rung ? [{ tier, range: [rung.low, rung.end] as [number, number] }] : [];
  });
  const within = ([low, end]: [number, number]) =>
    low < end ? points.below(end, false).count - points.below(low, false).count : 0;
  const counts = new Map<string, number>();
  for (const { tier, range } of ranged) counts.set(tier.id, (counts.get(tier.id) ?? 0) + within(range));
  // Cards in no tier: the members outside the union of the ranges, each overlap counted once.
  const ranges = ranged.map(({ range }) => range).sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let open: [number, number] | undefined;
  for (const range of ranges) {
    if (!(range[0] < range[1])) continue;
    if (open !== undefined && range[0] <= open[1]) open[1] = Math.max(open[1], range[1]);
    else {
      if (open !== undefined) covered += within(open);
      open = [range[0], range[1]];
    }
  }
  if (open !== undefined) covered += within(open);
  return {
    structure_id: structure.id,
    name: structure.name,
    tiers: ranged.map(({ tier }) => ({ id: tier.id, name: tier.name, members: counts.get(tier.id) ?? 0 })),
    no_tier: members - covered,
  };
}

export function overviewOf(project: Project) {
  const now = project.clock.now();
  const program = project.figures.program;
  return {
    object: "overview" as const,
    project_id: project.id,
    now: project.clock.iso(),
    members: program.members,
    customers: project.customers.size,
    points_issued: program.pointsIssued,
    balance_outstanding: program.balanceOutstanding,
    points_over_time: series(program.earnings, program.pointsIssued, now),
    tier_distribution: audienceStructures(project).map((structure) =>
      distributionIn(structure, program.points, program.members),
    ),
  };
}

/**
 * Where a card stands in a structure (domain/tiers/standing.ts, where every tier the dashboard names comes from),
 * how far the next tier is, and the structure's ladder of points tiers; `next_at` exact, as the tier's rules hold it.
 */
function progressIn(structure: Structure, points: number) {
  const { tier, next } = standingIn(structure, points);
  const from = tier?.from ?? 0;
  const percent =
    next === undefined
      ? 100
      : Math.max(0, Math.min(100, Math.floor(fractionBetween(points, from, next.from) * 100)));
  return {
    structure_id: structure.id,
    structure_name: structure.name,
    tier: tier?.tier.name ?? null,
    next_tier: next?.tier.name ?? null,
    next_at: next?.from ?? null,
    points,
    percent,
    ladder: ladderOf(structure).map((rung) => ({ name: rung.tier.name, from: rung.from })),
  };
}

/** A card's earnings by time, from the events that earned it points (whoever holds it now). */
function earningsOfCard(project: Project, cardId: string): ReadonlyTally {
  const tally = new SortedTally();
  for (const event of project.figures.program.earningEventsOf(cardId)) {
    const at = Date.parse(event.created_at);
    if (Number.isNaN(at)) continue;
    for (const earning of event.earned) if (earning.voucher_id === cardId) tally.add(at, 1, earning.points);
  }
  return tally;
}

export function storyOf(project: Project, customerId: string) {
  const customer = project.customers.get(customerId);
  const now = project.clock.now();
  const cards = project.figures.cardsOf(customer.id);
  const structures = audienceStructures(project);
  const timeline = timelineOf(project, customer);
  return {
    object: "customer_story" as const,
    project_id: project.id,
    now: project.clock.iso(),
    customer: {
      id: customer.id,
      name: customer.name ?? null,
      source_id: customer.source_id ?? null,
      email: customer.email ?? null,
      created_at: customer.created_at,
    },
    cards: cards.map((card) => ({
      id: card.id,
      code: card.code,
      campaign_id: card.campaign_id,
      campaign_name: project.campaigns.find(card.campaign_id)?.name ?? card.campaign_id,
      points: pointsOf(card),
      balance: balanceOf(card),
      progress: structures.map((structure) => progressIn(structure, pointsOf(card))),
      balance_over_time: series(earningsOfCard(project, card.id), balanceOf(card), now).map(
        ({ at, total }) => ({ at, balance: total }),
      ),
    })),
    timeline,
  };
}
