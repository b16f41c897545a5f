import type { Project } from "../../src/domain/projects/project.js";
import { fractionBetween, type Int64 } from "../../src/domain/shared/int64.js";
import { type EarnedBy, sentenceOf } from "../../src/http/control/demo/activity.js";
import { groupOf } from "../../src/http/control/demo/webhook-groups.js";
import { wordsOf } from "../../src/http/control/demo/words.js";

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

/** The structures an audience sees (issue 45): those the setting names, in the store's order, or every one. */
function shown(project: Project): Structure[] {
  const named = project.settings.audience_tier_structures;
  const all = project.tierStructures.list();
  return named === undefined ? all : all.filter((structure) => named.includes(structure.id));
}

const heldCards = (project: Project): Card[] =>
  project.vouchers.list().filter((card) => card.loyalty_card != null && card.holder_id);
const pointsOf = (card: Card) => Number(card.loyalty_card?.points ?? 0);
const balanceOf = (card: Card) => Number(card.loyalty_card?.balance ?? 0);

function bucketsFor(first: number, now: number): { size: number; starts: number[] } {
  const span = Math.max(now - first, HOUR);
  // Issue 45: past 60 days, buckets of as many whole days as keep a series to 60 (the whole history shows).
  const size = span <= 2 * DAY ? HOUR : Math.ceil(span / (60 * DAY)) * DAY;
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
    tier_distribution: shown(project).map((structure) => {
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
    ladder: ranges.map((r) => ({ name: r.tier.name, from: r.exact })),
  };
}

/**
 * The tier holding `points` as the structure stood at `at` (tiers made later left out), the one starting highest
 * of several; and whether going from `before` to `after` reached a higher one (issue 45's moments).
 */
function holding(structure: Structure, points: number, at: number) {
  return structure.tiers
    .filter((tier) => Date.parse(tier.created_at) <= at || Number.isNaN(Date.parse(tier.created_at)))
    .map((tier) => ({
      tier,
      range: rangeOf(tier),
      exact: (tier.qualification_rules as Rules).min_value ?? 0,
    }))
    .filter(({ range }) => range !== undefined && range[0] <= points && points < range[1])
    .sort((a, b) => (a.exact < b.exact ? -1 : a.exact > b.exact ? 1 : 0))
    .at(-1);
}

function reached(structure: Structure, before: number, after: number, at: number): string | undefined {
  const now = holding(structure, after, at);
  if (now === undefined) return undefined;
  const then = holding(structure, before, at);
  if (then === undefined) return before < (now.range as [number, number])[0] ? now.tier.name : undefined;
  return now.exact > then.exact ? now.tier.name : undefined;
}

/** The sentences of the tiers an event took its cards into, in the audience's structures. */
function momentsOfEvent(project: Project, event: ReturnType<Project["events"]["list"]>[number], who: string) {
  const structures = shown(project);
  const at = Date.parse(event.created_at);
  const cards = [
    ...new Set(event.earned.filter((e) => e.points_after !== undefined).map((e) => e.voucher_id)),
  ];
  const said: string[] = [];
  for (const card of cards) {
    const mine = event.earned.filter((e) => e.voucher_id === card && e.points_after !== undefined);
    const before = (mine[0]?.points_after ?? 0) - (mine[0]?.points ?? 0);
    const after = mine.at(-1)?.points_after ?? 0;
    for (const structure of structures) {
      const tier = reached(structure, before, after, Number.isNaN(at) ? Number.POSITIVE_INFINITY : at);
      if (tier !== undefined)
        said.push(
          structures.length > 1 ? `${who} reached ${tier} in ${structure.name}` : `${who} reached ${tier}`,
        );
    }
  }
  return [...new Set(said)];
}

type Entry = { at: string; kind: string; text: string; details?: string[] };

function timelineOf(project: Project, customerId: string, name: string, createdAt: string): Entry[] {
  const campaignName = (id: string) => project.campaigns.find(id)?.name ?? id;
  // Issue 45: what happened in groups (an event with its points and the tiers it reached), newest first, each
  // read top down; of equal times the one that happened later first.
  const groups: Entry[][] = [[{ at: createdAt, kind: "customer", text: `${name} became a customer` }]];
  for (const publication of project.publications.list())
    if (publication.customer_id === customerId) {
      const card = project.vouchers.find(publication.voucher_id);
      groups.push([
        {
          at: publication.created_at,
          kind: "joined",
          text: `Joined ${campaignName(publication.campaign_id)} with card ${card?.code ?? publication.voucher_id}`,
        },
      ]);
    }
  for (const event of project.events.list())
    if (event.customer_id === customerId) {
      const type = wordsOf(event.type);
      const group: Entry[] = [{ at: event.created_at, kind: "event", text: `Sent ${type}` }];
      for (const earning of event.earned) {
        const code = project.vouchers.find(earning.voucher_id)?.code ?? earning.voucher_id;
        group.push({
          at: event.created_at,
          kind: "points",
          text: `Earned ${earning.points.toLocaleString("en")} points for ${type} on ${code}`,
        });
      }
      for (const text of momentsOfEvent(project, event, name))
        group.push({ at: event.created_at, kind: "tier", text });
      groups.push(group);
    }
  const ascending = groups
    .map((group, i) => ({ group, i }))
    .sort((a, b) => {
      const x = a.group[0]?.at ?? "";
      const y = b.group[0]?.at ?? "";
      return x < y ? -1 : x > y ? 1 : a.i - b.i;
    });
  // The webhooks one request caused (the envelope's event.group_id) are one entry, under the last group begun by
  // the time they were made.
  const byRequest = new Map<string, ReturnType<Project["outbox"]["list"]>>();
  for (const delivery of project.outbox.list())
    if (JSON.stringify(delivery.envelope).includes(`"${customerId}"`)) {
      const group = delivery.envelope.event.group_id;
      byRequest.set(group, [...(byRequest.get(group) ?? []), delivery]);
    }
  for (const deliveries of byRequest.values()) {
    const at = deliveries[0]?.created_at ?? "";
    const { summary, lines } = groupOf(deliveries);
    const entry = { at, kind: "webhooks", text: summary, details: lines };
    const under = ascending.filter(({ group }) => (group[0]?.at ?? "") <= at).at(-1);
    if (under === undefined) ascending.unshift({ group: [entry], i: -1 });
    else under.group.push(entry);
  }
  return ascending.reverse().flatMap(({ group }) => group);
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
      progress: shown(project).map((structure) => progressIn(structure, pointsOf(card))),
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
  // Issue 45: token requests left out; each entry with its moments and the webhooks it caused.
  const entries = project.journal
    .list()
    .filter((entry) => entry.operation !== "generateToken")
    .slice(-limit)
    .reverse();
  const deliveries = project.outbox.list();
  return {
    object: "list",
    data_ref: "activity",
    activity: entries.map((entry) => {
      const caused = deliveries.filter((d) => d.envelope.event.group_id === entry.request_id);
      return {
        request_id: entry.request_id,
        time: entry.time,
        status: entry.status,
        ...sentenceOf(project, entry, earnedByScan),
        moments: momentsByScan(project, entry),
        webhooks: caused.length === 0 ? null : groupOf(caused),
      };
    }),
    total: entries.length,
  };
}

/** A journaled event's moments from the customer's event of that type nearest it, found by a scan of every event. */
function momentsByScan(project: Project, entry: ReturnType<Project["journal"]["list"]>[number]): string[] {
  const answer = entry.response_body as { customer?: { id?: unknown } } | null;
  const body = entry.body as { event?: unknown } | null;
  const customerId = answer?.customer?.id;
  if (entry.operation !== "trackEvent" || entry.status === null || entry.status >= 400) return [];
  if (typeof customerId !== "string" || typeof body?.event !== "string") return [];
  const at = Date.parse(entry.time);
  let best: { gap: number; event: ReturnType<Project["events"]["list"]>[number] } | undefined;
  for (const event of project.events.list())
    if (event.customer_id === customerId && event.type === body.event) {
      const gap = Math.abs(Date.parse(event.created_at) - at);
      if (best === undefined || gap < best.gap) best = { gap, event };
    }
  if (best === undefined) return [];
  const customer = project.customers.find(customerId);
  return momentsOfEvent(project, best.event, customer?.name ?? customer?.source_id ?? customerId);
}
