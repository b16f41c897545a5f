import type { Project } from "../../../domain/projects/project.js";

/**
 * The numbers of the dashboard's audience views (docs/guide/dashboard.md), computed from the project's records on
 * its own clock, so advancing the clock moves them: the program at a glance and one customer's story.
 */

type Card = ReturnType<Project["vouchers"]["list"]>[number];
type Structure = ReturnType<Project["tierStructures"]["list"]>[number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A POINTS tier's range as [low, end): `max_value` is inclusive, an open tier has no end. */
function rangeOf(tier: Structure["tiers"][number]): [number, number] | undefined {
  const rules = tier.qualification_rules as { type?: string; min_value?: number; max_value?: number };
  if (rules.type !== "POINTS") return undefined;
  const low = Number(rules.min_value ?? 0);
  return [low, rules.max_value === undefined ? Number.POSITIVE_INFINITY : Number(rules.max_value) + 1];
}

/** The POINTS tiers of a structure a card with `points` stands in. */
function tiersHolding(structure: Structure, points: number) {
  return structure.tiers.filter((tier) => {
    const range = rangeOf(tier);
    return range !== undefined && range[0] <= points && points < range[1];
  });
}

/** Loyalty cards someone holds: the program's members. */
function heldCards(project: Project): Card[] {
  return project.vouchers.list().filter((card) => card.loyalty_card != null && card.holder_id);
}

const pointsOf = (card: Card) => Number(card.loyalty_card?.points ?? 0);
const balanceOf = (card: Card) => Number(card.loyalty_card?.balance ?? 0);

/**
 * The buckets of a series ending at the project's `now`: hours when what it shows spans two days or less, days
 * otherwise (at most 60, so a long-running project shows its last two months).
 */
function bucketsFor(first: number, now: number): { size: number; starts: number[] } {
  const span = Math.max(now - first, HOUR);
  const size = span <= 2 * DAY ? HOUR : DAY;
  const end = Math.floor(now / size) * size;
  const count = Math.min(60, Math.max(2, (end - Math.floor(first / size) * size) / size + 1));
  return { size, starts: Array.from({ length: count }, (_, i) => end - (count - 1 - i) * size) };
}

/** Points earned over time, as each bucket ends: earned in it, and the total issued by then. */
function series(
  earnings: { at: number; points: number }[],
  totalNow: number,
  now: number,
): { at: string; earned: number; total: number }[] {
  const past = earnings.filter((earning) => earning.at <= now);
  const first = Math.min(now, ...past.map((earning) => earning.at));
  const { size, starts } = bucketsFor(first, now);
  // What was there before any earning the project recorded (fixture balances), then each bucket's earnings.
  let total = totalNow - past.reduce((sum, earning) => sum + earning.points, 0);
  const firstStart = starts[0] ?? now;
  total += past.filter((e) => e.at < firstStart).reduce((sum, e) => sum + e.points, 0);
  return starts.map((start) => {
    const earned = past
      .filter((e) => e.at >= start && e.at < start + size)
      .reduce((sum, e) => sum + e.points, 0);
    total += earned;
    return { at: new Date(start).toISOString(), earned, total };
  });
}

/** Every point an event earned, when and to which card. */
function earningsOf(project: Project, cardId?: string) {
  return project.events
    .list()
    .flatMap((event) =>
      event.earned
        .filter((earning) => cardId === undefined || earning.voucher_id === cardId)
        .map((earning) => ({ at: Date.parse(event.created_at), points: earning.points })),
    );
}

export function overviewOf(project: Project) {
  const now = project.clock.now();
  const cards = heldCards(project);
  const pointsIssued = cards.reduce((sum, card) => sum + pointsOf(card), 0);
  const held = new Set(cards.map((card) => card.id));
  const earnings = project.events
    .list()
    .flatMap((event) =>
      event.earned
        .filter((earning) => held.has(earning.voucher_id))
        .map((earning) => ({ at: Date.parse(event.created_at), points: earning.points })),
    );
  return {
    object: "overview" as const,
    project_id: project.id,
    now: project.clock.iso(),
    members: cards.length,
    customers: project.customers.size,
    points_issued: pointsIssued,
    balance_outstanding: cards.reduce((sum, card) => sum + balanceOf(card), 0),
    points_over_time: series(earnings, pointsIssued, now),
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

/** Where a card stands in a structure and how far the next tier is. */
function progressIn(structure: Structure, points: number) {
  const ranges = structure.tiers
    .flatMap((tier) => {
      const range = rangeOf(tier);
      return range ? [{ tier, low: range[0], end: range[1] }] : [];
    })
    .sort((a, b) => a.low - b.low);
  const current = ranges.filter((r) => r.low <= points && points < r.end).at(-1);
  const next = ranges.find((r) => r.low > points);
  const from = current?.low ?? 0;
  const percent =
    next === undefined
      ? 100
      : Math.max(0, Math.min(100, Math.floor(((points - from) / (next.low - from)) * 100)));
  return {
    structure_id: structure.id,
    structure_name: structure.name,
    tier: current?.tier.name ?? null,
    next_tier: next?.tier.name ?? null,
    next_at: next?.low ?? null,
    points,
    percent,
  };
}

type Entry = { at: string; kind: "joined" | "event" | "points" | "webhook" | "customer"; text: string };

export function storyOf(project: Project, customerId: string) {
  const customer = project.customers.get(customerId);
  const now = project.clock.now();
  const name = customer.name ?? customer.source_id ?? customer.id;
  const cards = project.vouchers
    .list()
    .filter((card) => card.holder_id === customer.id && card.loyalty_card != null);
  const campaignName = (id: string) => project.campaigns.find(id)?.name ?? id;
  const timeline: Entry[] = [
    { at: customer.created_at, kind: "customer", text: `${name} became a customer` },
  ];
  for (const publication of project.publications.list())
    if (publication.customer_id === customer.id) {
      const card = project.vouchers.find(publication.voucher_id);
      timeline.push({
        at: publication.created_at,
        kind: "joined",
        text: `Joined ${campaignName(publication.campaign_id)} with card ${card?.code ?? publication.voucher_id}`,
      });
    }
  for (const event of project.events.list())
    if (event.customer_id === customer.id) {
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
    if (JSON.stringify(delivery.envelope).includes(`"${customer.id}"`))
      timeline.push({
        at: delivery.created_at,
        kind: "webhook",
        text: `Webhook ${delivery.type} ${delivery.status === "not_sent" ? "recorded (no endpoint)" : delivery.status}`,
      });
  timeline.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
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
      campaign_name: campaignName(card.campaign_id),
      points: pointsOf(card),
      balance: balanceOf(card),
      progress: project.tierStructures.list().map((structure) => progressIn(structure, pointsOf(card))),
      balance_over_time: series(earningsOf(project, card.id), balanceOf(card), now).map(({ at, total }) => ({
        at,
        balance: total,
      })),
    })),
    timeline,
  };
}
