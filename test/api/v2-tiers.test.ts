import { beforeEach, describe, expect, it } from "vitest";
import { send } from "../helpers/http.js";
import { expectRefusedUnchanged, v2Headers } from "../helpers/v2.js";
import { buildWorld, type World } from "../helpers/world.js";

/** POST /v2/loyalties/tier-structures/{id}/tiers, FIDELITY.md point by point, in the default (strict) auth mode. */

const DEMO = "lts_d0000000000000001"; // Bronze 0-999, Silver 1000-4999
const SEGMENTS = "lts_d0000000000000003"; // VIP (SEGMENT), Regular 0-9999
const LT_ID = /^lt_[0-9a-f]{18}$/;

let world: World;
let headers: Record<string, string>;

beforeEach(async () => {
  world = buildWorld();
  headers = await v2Headers(world, "loyalties");
});

function post(structureId: string, body: unknown, extra: Record<string, string> = {}) {
  return send(world.app, {
    method: "POST",
    path: `/v2/loyalties/tier-structures/${structureId}/tiers`,
    headers: { ...headers, ...extra },
    body,
  });
}

const points = (min_value?: number, max_value?: number) => ({
  type: "POINTS",
  ...(min_value !== undefined && { min_value }),
  ...(max_value !== undefined && { max_value }),
});

function tiersOf(structureId: string) {
  return world.demo.tierStructures.get(structureId).tiers;
}

describe("POST /v2/loyalties/tier-structures/{id}/tiers - success", () => {
  it("creates a POINTS tier above the existing ones: 200, the tier object, stored in its structure", async () => {
    world.clock.set("2026-11-21T08:30:00.123Z");
    headers = await v2Headers(world, "loyalties"); // the day-old token has expired
    const res = await post(DEMO, { name: "Gold", qualification_rules: points(5000, 9999) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(LT_ID),
      tier_structure_id: DEMO,
      name: "Gold",
      qualification_rules: { type: "POINTS", min_value: 5000, max_value: 9999 },
      downgrade: { type: "INHERIT" },
      metadata: {},
      created_at: "2026-11-21T08:30:00.123Z",
      updated_at: null,
      object: "tier",
    });
    const stored = tiersOf(DEMO);
    expect(stored.map((tier) => tier.name)).toEqual(["Bronze", "Silver", "Gold"]);
    expect(stored[2]).toEqual(res.body);
  });

  it("uses the project's own clock for created_at", async () => {
    world.demo.clock.advance(600); // within the token's 900 s
    const res = await post(DEMO, { name: "Gold", qualification_rules: points(5000) });
    expect(res.body.created_at).toBe("2026-11-20T10:10:00.000Z");
  });

  it("gives every tier a new lt_ id", async () => {
    const a = await post(DEMO, { name: "Gold", qualification_rules: points(5000, 5999) });
    const b = await post(DEMO, { name: "Platinum", qualification_rules: points(6000, 6999) });
    expect(a.body.id).not.toBe(b.body.id);
    expect(tiersOf(DEMO).map((tier) => tier.id)).toEqual([
      "lt_d0000000000000001",
      "lt_d0000000000000002",
      a.body.id,
      b.body.id,
    ]);
  });

  it("defaults downgrade to INHERIT and metadata to {} when they are left out or null", async () => {
    const omitted = await post(DEMO, { name: "Gold", qualification_rules: points(5000, 5999) });
    const nulls = await post(DEMO, {
      name: "Platinum",
      qualification_rules: points(6000, 6999),
      downgrade: null,
      metadata: null,
    });
    for (const res of [omitted, nulls]) {
      expect(res.status).toBe(200);
      expect(res.body.downgrade).toEqual({ type: "INHERIT" });
      expect(res.body.metadata).toEqual({});
    }
  });

  it("keeps the downgrade and metadata it is given", async () => {
    const metadata = { color: "#ffd700", perks: ["lounge"], rank: 3, nested: { a: null } };
    const res = await post(DEMO, {
      name: "Gold",
      qualification_rules: points(5000, 5999),
      downgrade: { type: "NO_DOWNGRADE" },
      metadata,
    });
    expect(res.body).toMatchObject({ downgrade: { type: "NO_DOWNGRADE" }, metadata });
    expect(tiersOf(DEMO)[2]).toMatchObject({ downgrade: { type: "NO_DOWNGRADE" }, metadata });
  });

  it("an open-ended POINTS tier (no max_value) is stored without max_value", async () => {
    const res = await post(DEMO, { name: "Gold", qualification_rules: points(5000) });
    expect(res.status).toBe(200);
    expect(res.body.qualification_rules).toEqual({ type: "POINTS", min_value: 5000 });
  });

  it("max_value equal to min_value is a one-point range", async () => {
    const res = await post(DEMO, { name: "Exactly 5000", qualification_rules: points(5000, 5000) });
    expect(res.status).toBe(200);
    expect((await post(DEMO, { name: "Next", qualification_rules: points(5001, 5001) })).status).toBe(200);
  });

  it("segment: null on a POINTS tier is accepted as absent (the contract allows null) and not stored", async () => {
    const res = await post(DEMO, {
      name: "Gold",
      qualification_rules: { ...points(5000, 5999), segment: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.qualification_rules).toEqual({ type: "POINTS", min_value: 5000, max_value: 5999 });
  });

  it("creates a SEGMENT tier for a segment of the project", async () => {
    const res = await post(SEGMENTS, {
      name: "Newcomers",
      qualification_rules: { type: "SEGMENT", segment: { id: "seg_demo_newcomers" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.qualification_rules).toEqual({ type: "SEGMENT", segment: { id: "seg_demo_newcomers" } });
    expect(tiersOf(SEGMENTS).at(-1)).toEqual(res.body);
  });

  it("a SEGMENT tier is not a points range: it never overlaps a POINTS tier", async () => {
    const res = await post(DEMO, {
      name: "VIP",
      qualification_rules: { type: "SEGMENT", segment: { id: "seg_demo_vip" } },
    });
    expect(res.status).toBe(200);
  });

  it("name: 1 and 200 characters are the limits", async () => {
    expect((await post(DEMO, { name: "G", qualification_rules: points(5000, 5999) })).status).toBe(200);
    const long = "x".repeat(200);
    const res = await post(DEMO, { name: long, qualification_rules: points(6000, 6999) });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(long);
  });

  it("the tenth tier of a structure is accepted and the eleventh refused with 409", async () => {
    for (let i = 3; i <= 10; i++) {
      const res = await post(DEMO, {
        name: `Tier ${i}`,
        qualification_rules: points(i * 10_000, i * 10_000 + 9_999),
      });
      expect(res.status).toBe(200);
    }
    expect(tiersOf(DEMO)).toHaveLength(10);
    const eleventh = { name: "Tier 11", qualification_rules: points(500_000) };
    await expectRefusedUnchanged(world, () => post(DEMO, eleventh), 409, {
      key: "tier_limit_exceeded",
      message: "Tier limit exceeded",
      details: `Tier structure ${DEMO} already has the maximum of 10 tiers`,
      resource_id: DEMO,
      resource_type: "vl_tier_structure",
    });
    expect(tiersOf(DEMO)).toHaveLength(10);
  });
});
