import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Project } from "../../src/domain/projects/project.js";
import { projectState } from "../../src/domain/projects/state-export.js";
import { activityOf } from "../../src/http/control/demo/activity.js";
import { overviewOf, storyOf } from "../../src/http/control/demo/figures.js";
import { stringifyExact } from "../../src/platform/exact-json.js";
import { FUZZ_RUNS, FUZZ_SEED } from "../fuzz/harness.js";
import { control } from "../helpers/control.js";
import { send } from "../helpers/http.js";
import { activityReference, overviewReference, storyReference } from "../helpers/views-reference.js";
import { buildWorld, DEMO_KEYS, type World } from "../helpers/world.js";

/**
 * The audience views read figures the project keeps up to date as records change (domain/figures); this holds
 * them to a recomputation from every record (test/helpers/views-reference.ts) after random sequences of the
 * operations, clock moves both ways, writes no operation makes (points past 2^53, cards leaving their holder or
 * deleted, events replaced, earned for any card or dated in the future, tiers at the int64 maximum), state
 * imports that drop a card, resets, and snapshots saved and restored: each of those builds a new project.
 */

// A thirty-second of FUZZ_RUNS sequences (each of up to dozens of steps): 5 in `npm test`, 62 in the slow tier.
const RUNS = Math.max(4, Math.round(FUZZ_RUNS / 32));
const TYPES = ["user_subscribed", "cart_abandoned", "referral_converted", "loyalty_bonus"] as const;
const PEOPLE = ["alice@example.com", "bob@example.com", "p1@example.com", "p2@example.com", "p3@example.com"];
// Points near 2^53, with room for the events of a run to add to them (a card past 2^53 is a double no import takes).
const BIG = [0, 7, 999, 1000, 2 ** 52, Number.MAX_SAFE_INTEGER - 100_000];

const op = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("join" as const), who: fc.nat(2), ondemand: fc.boolean() }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("event" as const), who: fc.nat(4), type: fc.nat(3) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("event" as const), who: fc.nat(2), type: fc.constant(0) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("clock" as const),
      seconds: fc.integer({ min: -4 * 86_400, max: 40 * 86_400 }),
    }),
  },
  fc.record({ kind: fc.constant("points" as const), card: fc.nat(20), points: fc.constantFrom(...BIG) }),
  fc.record({ kind: fc.constant("release" as const), card: fc.nat(20), drop: fc.boolean() }),
  fc.record({
    kind: fc.constant("odd" as const),
    who: fc.nat(4),
    card: fc.nat(20),
    replace: fc.boolean(),
    hours: fc.integer({ min: -60, max: 30 }),
    points: fc.constantFrom(...BIG, 0, -50),
  }),
  fc.constant({ kind: "tiers" as const }),
  fc.record({ kind: fc.constant("import" as const), card: fc.nat(20) }),
  fc.constantFrom({ kind: "reset" as const }, { kind: "save" as const }, { kind: "restore" as const }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

const demo = (world: World) => world.registry.get("demo");
const heldCards = (project: Project) =>
  [...project.vouchers.records()].filter((card) => card.holder_id && card.loyalty_card);

async function apply(world: World, step: Op, n: number): Promise<void> {
  const project = demo(world);
  const cards = heldCards(project);
  const card = "card" in step ? cards[step.card % Math.max(1, cards.length)] : undefined;
  switch (step.kind) {
    case "join":
      await send(world.app, {
        method: "POST",
        path: `/v1/loyalties/${step.ondemand ? "camp_demo_ondemand" : "camp_demo_loyalty"}/members`,
        headers: DEMO_KEYS,
        body: { customer: { source_id: PEOPLE[step.who], name: `Person ${step.who}` } },
      });
      return;
    case "event": {
      const type = TYPES[step.type] as string;
      await send(world.app, {
        method: "POST",
        path: "/v1/events",
        headers: DEMO_KEYS,
        body: {
          event: type,
          customer: { source_id: PEOPLE[step.who] },
          metadata: type === "user_subscribed" ? { plan: "pro" } : {},
        },
      });
      return;
    }
    case "clock":
      await control(world.app, {
        method: "POST",
        path: "/__mock/projects/demo/clock",
        body: { advance_seconds: step.seconds },
      });
      return;
    case "points":
      if (card?.loyalty_card)
        project.vouchers.put({
          ...card,
          loyalty_card: { ...card.loyalty_card, points: step.points, balance: step.points },
        });
      return;
    case "release":
      if (card && step.drop) project.vouchers.delete(card.id);
      else if (card) project.vouchers.put({ ...card, holder_id: null });
      return;
    case "odd":
      return oddEvent(project, step, n, card?.id);
    case "tiers":
      return bigTiers(project, n);
    case "import":
      return importDropping(world, card?.id);
    case "reset":
      await control(world.app, { method: "POST", path: "/__mock/projects/demo/reset" });
      return;
    case "save":
      await control(world.app, {
        method: "POST",
        path: "/__mock/projects/demo/snapshots",
        body: { name: "kept", replace: true },
      });
      return;
    case "restore":
      if (world.registry.snapshots.list("demo").length > 0)
        await control(world.app, { method: "POST", path: "/__mock/projects/demo/snapshots/kept/restore" });
      return;
  }
}

/** An event no operation writes: for any card (held or not), dated anywhere, or replacing one with another customer. */
function oddEvent(project: Project, step: Extract<Op, { kind: "odd" }>, n: number, cardId?: string): void {
  const customers = [...project.customers.values()];
  const customer = customers[step.who % 2 === 0 ? 0 : step.who % customers.length];
  const existing = [...project.events.storedValues()];
  const id =
    step.replace && existing.length > 0 ? (existing[n % existing.length]?.id as string) : `evcus_odd${n}`;
  project.events.put({
    id,
    object: "event",
    // Mostly the type the journaled events have, so the activity must tell which of them a request recorded.
    type: TYPES[n % 3 === 0 ? 1 : 0] as string,
    customer_id: customer?.id as string,
    referral: null,
    loyalty: null,
    metadata: {},
    earned: cardId ? [{ earning_rule_id: "lern_odd", voucher_id: cardId, points: step.points }] : [],
    created_at: new Date(project.clock.now() + step.hours * 3_600_000).toISOString(),
  });
}

/** A structure whose tiers reach the int64 maximum, so `next_at` must be exact. */
function bigTiers(project: Project, n: number): void {
  const [template] = project.tierStructures.list();
  if (!template?.tiers[0]) return;
  const structureId = `lts_b1${n.toString(16)}`;
  const tier = (id: string, min: number | bigint, max?: number | bigint) => ({
    ...template.tiers[0],
    id,
    tier_structure_id: structureId,
    name: `Tier ${id}`,
    qualification_rules: { type: "POINTS", min_value: min, ...(max !== undefined && { max_value: max }) },
  });
  project.tierStructures.put({
    ...template,
    id: structureId,
    name: `Big ${n}`,
    tiers: [
      tier(`lt_a${n.toString(16)}`, 0, 99),
      tier(`lt_b${n.toString(16)}`, 9007199254740993n, 9007199254750000n),
      tier(`lt_c${n.toString(16)}`, 9223372036854775806n),
    ],
  } as Parameters<Project["tierStructures"]["put"]>[0]);
}

/** Exports the project, drops one held card (and its publications), and imports the rest through the control API. */
async function importDropping(world: World, cardId?: string): Promise<void> {
  const state = projectState(demo(world));
  const vouchers = state.vouchers.filter((card) => card.id !== cardId);
  const kept = new Set(vouchers.map((card) => card.id));
  // A card deleted in the store leaves its publications naming it, which an import refuses: they go too.
  const publications = state.publications.filter((publication) => kept.has(publication.voucher_id));
  const document = { ...state, vouchers, publications };
  const res = await send(
    world.app,
    {
      method: "PUT",
      path: "/__mock/projects/demo/state",
      headers: { "content-type": "application/json" },
      body: stringifyExact(document),
    },
    () => undefined,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

function expectSameViews(project: Project, customers: Iterable<string>): void {
  expect(overviewOf(project)).toEqual(overviewReference(project));
  expect(activityOf(project, 1000)).toEqual(activityReference(project, 1000));
  for (const id of customers) expect(storyOf(project, id)).toEqual(storyReference(project, id));
}

describe("the audience views' figures", () => {
  it("equal a recomputation from every record after any sequence of writes, moves, imports, resets and restores", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 24 }), async (steps) => {
        const world = buildWorld();
        for (const [n, step] of steps.entries()) {
          await apply(world, step, n);
          const project = demo(world);
          const touched = new Set(heldCards(project).map((card) => card.holder_id as string));
          for (const person of PEOPLE) {
            const customer = project.customers.findBySourceId(person);
            if (customer) touched.add(customer.id);
          }
          expectSameViews(project, touched);
        }
      }),
      { numRuns: RUNS, seed: FUZZ_SEED },
    );
  }, 120_000);
});
