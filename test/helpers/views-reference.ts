import type { Project } from "../../src/domain/projects/project.js";
import { fractionBetween, type Int64 } from "../../src/domain/shared/int64.js";
import { type EarnedBy, sentenceOf } from "../../src/http/control/demo/activity.js";

/**
 * The audience views recomputed from scratch, from every record of the project, as 0.10.0 computed them
 * (src/http/control/demo/figures.ts at 0a9e18b), with issue 44's two fixes: no spread over the earnings (which
 * overflowed the stack) and exact integers (`next_at` as the tier holds it, its percentage from exact differences
 * (fractionBetween), sums past 2^53 as bigints). The
 * incremental figures must answer exactly this after any sequence of writes (test/control/views-figures.test.ts).
 */

type Card = ReturnType<Project["vouchers"]["list"]>[number];
type Structure = ReturnType<Project["tierStructures"]["list"]>[number];
type Rules = { type?: string; min_value?: Int64; max_value?: Int64 };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Sums in bigints throughout, then in the answer's one form: a number up to 2^53, a bigint past it. */
const canonical = (value: bigint): Int64 => (value >= -MAX && value <= MAX ? Number(value) : value);
const MAX = BigInt(Number.MAX_SAFE_INTEGER);
const sumOf = (values: Iterable<Int64>) => {
  let sum = 0n;
  for (const value of values) sum += BigInt(value);
  return canonical(sum);
};
const addExact = (a: Int64, b: Int64) => canonical(BigInt(a) + BigInt(b));
const minus = (a: Int64, b: Int64) => canonical(BigInt(a) - BigInt(b));

function rangeOf(tier: Structure["tiers"][number]): [number, number] | undefined {
  const rules = tier.qualification_rules as Rules;
  if (rules.type !== "POINTS") return undefined;
  const low = Number(rules.min_value ?? 0);
  return [low, rules.max_value === undefined ? Number.POSITIVE_INFINITY : Number(rules.max_value) + 1];
}

function tiersHolding(structure: Structure, points: number) {
  return structure.tiers.filter((tier) => {
    const range = rangeOf(tier);
    return range !== undefined && range[0] <= points && points < range[1];
  });
}

const heldCards = (project: Project): Card[] =>
  project.vouchers.list().filter((card) => card.loyalty_card != null && card.holder_id);
const pointsOf = (card: Card) => Number(card.loyalty_card?.points ?? 0);
const balanceOf = (card: Card) => Number(card.loyalty_card?.balance ?? 0);

function bucketsFor(first: number, now: number): { size: number; starts: number[] } {
  const span = Math.max(now - first, HOUR);
  const size = span <= 2 * DAY ? HOUR : DAY;
  const end = Math.floor(now / size) * size;
  const count = Math.min(60, Math.max(2, (end - Math.floor(first / size) * size) / size + 1));
  return { size, starts: Array.from({ length: count }, (_, i) => end - (count - 1 - i) * size) };
}

function series(earnings: { at: number; points: number }[], totalNow: Int64, now: number) {
  const past = earnings.filter((earning) => earning.at <= now);
  let first = now;
  for (const earning of past) if (earning.at < first) first = earning.at;
  const { size, starts } = bucketsFor(first, now);
  let total = minus(totalNow, sumOf(past.map((e) => e.points)));
  const firstStart = starts[0] ?? now;
  total = addExact(total, sumOf(past.filter((e) => e.at < firstStart).map((e) => e.points)));
  return starts.map((start) => {
    const earned = sumOf(past.filter((e) => e.at >= start && e.at < start + size).map((e) => e.points));
    total = addExact(total, earned);
    return { at: new Date(start).toISOString(), earned, total };
  });
}

function earningsOf(project: Project, cardIds: (id: string) => boolean) {
  return project.events
    .list()
    .flatMap((event) =>
      event.earned
        .filter((earning) => cardIds(earning.voucher_id))
        .map((earning) => ({ at: Date.parse(event.created_at), points: earning.points })),
    );
}

export function overviewReference(project: Project) {
  const now = project.clock.now();
  const cards = heldCards(project);
  const pointsIssued = sumOf(cards.map(pointsOf));
  const held = new Set(cards.map((card) => card.id));
  return {
    object: "overview",
    project_id: project.id,
    now: project.clock.iso(),
    members: cards.length,
    customers: project.customers.size,
    points_issued: pointsIssued,
    balance_outstanding: sumOf(cards.map(balanceOf)),
    points_over_time: series(
      earningsOf(project, (id) => held.has(id)),
      pointsIssued,
      now,
    ),
    tier_distribution: project.tierStructures.list().map((structure) => {
      const tiers = structure.tiers.flatMap((tier) => (rangeOf(tier) ? [tier] : []));
      const counts = new Map(tiers.map((tier) => [tier.id, 0]));
      let none = 0;
      for (const card of cards) {
        const holding = tiersHolding(structure, pointsOf(card));
        if (holding.length === 0) none += 1;
        for (const tier of holding) counts.set(tier.id, (counts.get(tier.id) ?? 0) + 1);
      }
      return {
        structure_id: structure.id,
        name: structure.name,
        tiers: tiers.map((tier) => ({ id: tier.id, name: tier.name, members: counts.get(tier.id) ?? 0 })),
        no_tier: none,
      };
    }),
  };
}

function progressIn(structure: Structure, points: number) {
  const ranges = structure.tiers
    .flatMap((tier) => {
      const range = rangeOf(tier);
      const exact = (tier.qualification_rules as Rules).min_value ?? 0;
      return range ? [{ tier, low: range[0], end: range[1], exact }] : [];
    })
    .sort((a, b) => (a.exact < b.exact ? -1 : a.exact > b.exact ? 1 : 0));
  const current = ranges.filter((r) => r.low <= points && points < r.end).at(-1);
  const next = ranges.find((r) => r.low > points);
  const percent =
    next === undefined
      ? 100
      : Math.max(
          0,
          Math.min(100, Math.floor(fractionBetween(points, current?.exact ?? 0, next.exact) * 100)),
        );
  return {
    structure_id: structure.id,
    structure_name: structure.name,
    tier: current?.tier.name ?? null,
    next_tier: next?.tier.name ?? null,
    next_at: next?.exact ?? null,
    points,
    percent,
  };
}

type Entry = { at: string; kind: string; text: string };

function timelineOf(project: Project, customerId: string, name: string, createdAt: string): Entry[] {
  const campaignName = (id: string) => project.campaigns.find(id)?.name ?? id;
  const timeline: Entry[] = [{ at: createdAt, kind: "customer", text: `${name} became a customer` }];
  for (const publication of project.publications.list())
    if (publication.customer_id === customerId) {
      const card = project.vouchers.find(publication.voucher_id);
      timeline.push({
        at: publication.created_at,
        kind: "joined",
        text: `Joined ${campaignName(publication.campaign_id)} with card ${card?.code ?? publication.voucher_id}`,
      });
    }
  for (const event of project.events.list())
    if (event.customer_id === customerId) {
      timeline.push({ at: event.created_at, kind: "event", text: `Sent ${event.type}` });
      for (const earning of event.earned) {
        const code = project.vouchers.find(earning.voucher_id)?.code ?? earning.voucher_id;
        timeline.push({
          at: event.created_at,
          kind: "points",
          text: `Earned ${earning.points.toLocaleString("en")} points for ${event.type} on ${code}`,
        });
      }
    }
  for (const delivery of project.outbox.list())
    if (JSON.stringify(delivery.envelope).includes(`"${customerId}"`))
      timeline.push({
        at: delivery.created_at,
        kind: "webhook",
        text: `Webhook ${delivery.type} ${delivery.status === "not_sent" ? "recorded (no endpoint)" : delivery.status}`,
      });
  return timeline.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

export function storyReference(project: Project, customerId: string) {
  const customer = project.customers.get(customerId);
  const now = project.clock.now();
  const name = customer.name ?? customer.source_id ?? customer.id;
  const cards = project.vouchers
    .list()
    .filter((card) => card.holder_id === customer.id && card.loyalty_card != null);
  const timeline = timelineOf(project, customer.id, name, customer.created_at);
  return {
    object: "customer_story",
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
      progress: project.tierStructures.list().map((structure) => progressIn(structure, pointsOf(card))),
      balance_over_time: series(
        earningsOf(project, (id) => id === card.id),
        balanceOf(card),
        now,
      ).map(({ at, total }) => ({ at, balance: total })),
    })),
    timeline,
  };
}

/** The activity's points as 0.10.0 found them: a scan of every event for each journal entry. */
export const earnedByScan: EarnedBy = (project, customerId, type, at) => {
  let best: { gap: number; points: Int64 } | undefined;
  for (const event of project.events.list())
    if (event.customer_id === customerId && event.type === type) {
      const gap = Math.abs(Date.parse(event.created_at) - at);
      if (best === undefined || gap < best.gap)
        best = { gap, points: sumOf(event.earned.map((earning) => earning.points)) };
    }
  return best?.points ?? 0;
};

/** The newest `limit` journal entries as sentences, their points found by scanning (activityOf's answer). */
export function activityReference(project: Project, limit: number) {
  const entries = project.journal.list({ limit }).reverse();
  return {
    object: "list",
    data_ref: "activity",
    activity: entries.map((entry) => ({
      request_id: entry.request_id,
      time: entry.time,
      status: entry.status,
      ...sentenceOf(project, entry, earnedByScan),
    })),
    total: entries.length,
  };
}
