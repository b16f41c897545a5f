import { describe, expect, it } from "vitest";
import { CustomerOrder } from "../../src/domain/figures/customer-order.js";
import { ladderOf, standingIn, tierReached } from "../../src/domain/tiers/standing.js";
import type { TierStructure } from "../../src/domain/tiers/tier-structure.js";

/** Issue 45: where points stand in a structure, the one place the story's tier and the "reached" moments read. */

const T0 = "2026-01-01T00:00:00.000Z";
const tier = (name: string, min: number | bigint, max?: number | bigint, created_at = T0) => ({
  id: `lt_${name}`,
  tier_structure_id: "lts_1",
  name,
  qualification_rules:
    max === undefined
      ? { type: "POINTS" as const, min_value: min }
      : { type: "POINTS" as const, min_value: min, max_value: max },
  downgrade: { type: "INHERIT" as const },
  metadata: {},
  created_at,
  updated_at: null,
  object: "tier" as const,
});
const structure = (...tiers: ReturnType<typeof tier>[]): TierStructure => ({
  id: "lts_1",
  name: "Tiers",
  created_at: T0,
  updated_at: null,
  object: "tier_structure",
  tiers: [
    ...tiers,
    {
      ...tier("VIP", 0),
      qualification_rules: { type: "SEGMENT", segment: { id: "seg_1" } },
    },
  ],
});
const at = (iso: string) => Date.parse(iso);

describe("standingIn", () => {
  const tiers = structure(tier("Gold", 5000), tier("Bronze", 0, 999), tier("Silver", 1000, 4999));

  it("the ladder is the POINTS tiers by min_value, exact; SEGMENT tiers are not on it", () => {
    expect(ladderOf(tiers).map((rung) => [rung.tier.name, rung.from, rung.end])).toEqual([
      ["Bronze", 0, 1000],
      ["Silver", 1000, 5000],
      ["Gold", 5000, Number.POSITIVE_INFINITY],
    ]);
    const huge = structure(tier("Huge", 9223372036854775806n, 9223372036854775807n));
    expect(ladderOf(huge)[0]?.from).toBe(9223372036854775806n);
  });

  it("the tier holding the points and the next one up, at each end of a range", () => {
    const named = (points: number) => {
      const { tier: now, next } = standingIn(tiers, points);
      return [now?.tier.name, next?.tier.name];
    };
    expect(named(0)).toEqual(["Bronze", "Silver"]);
    expect(named(999)).toEqual(["Bronze", "Silver"]);
    expect(named(1000)).toEqual(["Silver", "Gold"]);
    expect(named(4999)).toEqual(["Silver", "Gold"]);
    expect(named(5000)).toEqual(["Gold", undefined]);
    expect(named(10 ** 12)).toEqual(["Gold", undefined]);
  });

  it("as the structure stood at a moment: a tier made later is not there yet", () => {
    const later = structure(tier("Bronze", 0, 999), tier("Silver", 1000, 4999, "2026-06-01T00:00:00.000Z"));
    expect(standingIn(later, 1200, at("2026-05-31T23:59:59.999Z")).tier).toBeUndefined();
    expect(standingIn(later, 1200, at("2026-06-01T00:00:00.000Z")).tier?.tier.name).toBe("Silver");
    expect(standingIn(later, 1200).tier?.tier.name).toBe("Silver");
  });
});

describe("tierReached", () => {
  const tiers = structure(tier("Bronze", 100, 999), tier("Silver", 1000, 4999));
  const reached = (before: number, after: number, when = at("2026-02-01T00:00:00.000Z")) =>
    tierReached(tiers, before, after, when)?.tier.name;

  it("a higher tier, or the first from below every tier; not a stay, a move down or leaving the top", () => {
    expect(reached(850, 1100)).toBe("Silver");
    expect(reached(0, 100)).toBe("Bronze");
    expect(reached(0, 1500)).toBe("Silver");
    expect(reached(1000, 1250)).toBeUndefined();
    expect(reached(1100, 900)).toBeUndefined();
    expect(reached(4900, 5100)).toBeUndefined();
    expect(reached(6000, 6100)).toBeUndefined();
  });

  it("not a tier made after the moment", () => {
    expect(reached(850, 1100, at("2025-12-31T00:00:00.000Z"))).toBeUndefined();
  });
});

describe("CustomerOrder", () => {
  it("walks the customers newest first, as stored now, and follows puts and deletes", () => {
    const store = new Map<string, { id: string; name: string }>();
    for (const id of ["a", "b"]) store.set(id, { id, name: id });
    const order = new CustomerOrder(
      () => store.values(),
      (id) => store.get(id),
    );
    const names = () => [...order.newestFirst()].map((c) => c.name);
    const put = (id: string, name: string) => {
      const previous = store.get(id);
      store.set(id, { id, name });
      order.change(previous, store.get(id));
    };
    // Nothing is kept before the first walk.
    put("c", "c");
    expect(names()).toEqual(["c", "b", "a"]);
    put("d", "d");
    put("a", "a, renamed");
    expect(names()).toEqual(["d", "c", "b", "a, renamed"]);
    const gone = store.get("c");
    store.delete("c");
    order.change(gone, undefined);
    expect(names()).toEqual(["d", "b", "a, renamed"]);
  });
});
