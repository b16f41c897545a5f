import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { demoToken, expectRefusedUnchanged, v2Headers } from "../helpers/v2.js";
import { buildWorld, DEMO_KEYS, type World } from "../helpers/world.js";

/**
 * POST /v2/loyalties/tier-structures/{id}/tiers in the generally available form (docs/fidelity.md, "Loyalty v2 as
 * generally available"): the body says which form it is, the GA form is validated as the GA file's TierCreateRequest
 * says and answered as its Tier, and both forms share one store, the overlap rule and the tier limit. Every answer
 * is validated against the GA file's schema by send() (test/helpers/contract-ga.ts).
 */

const DEMO = "lts_d0000000000000001"; // Bronze 0-999, Silver 1000-4999
const FULL = "lts_d0000000000000002"; // 10 tiers, 0-9999
const PATH = (structure: string) => `/v2/loyalties/tier-structures/${structure}/tiers`;

let world: World;
let headers: Record<string, string>;

/** A fresh world for each test that may change it; the refusals share one, as each must leave it unchanged. */
async function freshWorld() {
  world = buildWorld();
  headers = await v2Headers(world);
}

const post = (structure: string, body: unknown, h: Record<string, string> = headers) =>
  send(world.app, { method: "POST", path: PATH(structure), headers: h, body });

const gaTier = (points: Record<string, unknown> | null, extra: Record<string, unknown> = {}) => ({
  name: "Gold",
  qualification_rules: { type: "POINTS", points, ...extra },
});
const gaSegmentTier = (points: Record<string, unknown>, segment: unknown) => ({
  name: "VIP Gold",
  qualification_rules: { type: "POINTS_AND_SEGMENT", points, segment },
});

describe("POST .../tiers - the generally available form", () => {
  beforeEach(freshWorld);

  it("a POINTS tier is created and answered with its range under qualification_rules.points", async () => {
    const res = await post(DEMO, {
      ...gaTier({ min_value: 5000, max_value: 9999 }),
      downgrade: { type: "NO_DOWNGRADE" },
      metadata: { tier: "gold" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^lt_[a-f0-9]{18}$/),
      tier_structure_id: DEMO,
      name: "Gold",
      qualification_rules: { type: "POINTS", points: { min_value: 5000, max_value: 9999 } },
      downgrade: { type: "NO_DOWNGRADE" },
      metadata: { tier: "gold" },
      created_at: "2026-11-20T10:00:00.000Z",
      updated_at: null,
      object: "tier",
    });
    // One store: the tier is the structure's, kept in the beta's flat shape.
    expect(world.demo.tierStructures.get(DEMO).tiers.at(-1)).toEqual({
      ...res.body,
      qualification_rules: { type: "POINTS", min_value: 5000, max_value: 9999 },
    });
  });

  it("an open-ended POINTS tier leaves max_value out; downgrade and metadata take their defaults", async () => {
    const res = await post(DEMO, gaTier({ min_value: 5000 }, { segment: null }));
    expect(res.status).toBe(200);
    expect(res.body.qualification_rules).toEqual({ type: "POINTS", points: { min_value: 5000 } });
    expect(res.body.downgrade).toEqual({ type: "INHERIT" });
    expect(res.body.metadata).toEqual({});
  });

  it("a POINTS_AND_SEGMENT tier is answered with its points and its segment", async () => {
    const res = await post(DEMO, gaSegmentTier({ min_value: 5000, max_value: 5999 }, { id: "seg_demo_vip" }));
    expect(res.status).toBe(200);
    expect(res.body.qualification_rules).toEqual({
      type: "POINTS_AND_SEGMENT",
      points: { min_value: 5000, max_value: 5999 },
      segment: { id: "seg_demo_vip" },
    });
  });

  it("a POINTS_AND_SEGMENT tier read through the beta's form (the project's state) shows the segment and the flat range", async () => {
    const created = await post(DEMO, gaSegmentTier({ min_value: 5000 }, { id: "seg_demo_vip" }));
    const view = await control(world.app, {
      method: "GET",
      path: `/__mock/projects/demo/tier-structures/${DEMO}`,
    });
    expect(
      view.body.tiers.find((tier: { id: string }) => tier.id === created.body.id).qualification_rules,
    ).toEqual({ type: "POINTS_AND_SEGMENT", min_value: 5000, segment: { id: "seg_demo_vip" } });
  });

  it("thresholds are numbers from 0 to 1,000,000,000, fractions included, as the GA file types them", async () => {
    const res = await post(DEMO, gaTier({ min_value: 5000.5, max_value: 1_000_000_000 }));
    expect(res.status).toBe(200);
    expect(res.body.qualification_rules.points).toEqual({ min_value: 5000.5, max_value: 1_000_000_000 });
    // The fraction is a point of the range: 5000 is still free.
    const below = await post(DEMO, gaTier({ min_value: 5000, max_value: 5000 }));
    expect(below.status).toBe(200);
  });

  it("a POINTS_AND_SEGMENT tier naming an unknown segment is 404 vl_segment, and nothing changes", async () => {
    await expectRefusedUnchanged(
      world,
      () => post(DEMO, gaSegmentTier({ min_value: 5000 }, { id: "seg_nope" })),
      404,
      { key: "not_found", resource_type: "vl_segment", details: "Cannot find vl_segment with id seg_nope" },
    );
  });

  it("an unknown structure is 404 vl_tier_structure, as in the beta's form", async () => {
    await expectRefusedUnchanged(world, () => post("lts_nope", gaTier({ min_value: 5000 })), 404, {
      resource_type: "vl_tier_structure",
      details: "Cannot find vl_tier_structure with id lts_nope",
    });
  });
});

describe("POST .../tiers - one store for both forms: the overlap rule and the tier limit", () => {
  beforeEach(freshWorld);

  it("a GA range overlapping a beta tier is 403 tier_range_overlap naming it, and the other way round", async () => {
    await expectRefusedUnchanged(world, () => post(DEMO, gaTier({ min_value: 4000, max_value: 6000 })), 403, {
      key: "tier_range_overlap",
      details: "Points range 4000-6000 overlaps tier lt_d0000000000000002 (Silver, points 1000-4999)",
    });
    const ga = await post(DEMO, gaSegmentTier({ min_value: 5000, max_value: 5999 }, { id: "seg_demo_vip" }));
    expect(ga.status).toBe(200);
    const beta = await expectRefusedUnchanged(
      world,
      () => post(DEMO, { name: "Beta", qualification_rules: { type: "POINTS", min_value: 5500 } }),
      403,
      { key: "tier_range_overlap" },
    );
    expect(beta.body.details).toBe(
      `Points range 5500 and above overlaps tier ${ga.body.id} (VIP Gold, points 5000-5999)`,
    );
  });

  it("a full structure is 409 tier_limit_exceeded in either form", async () => {
    await expectRefusedUnchanged(world, () => post(FULL, gaTier({ min_value: 50_000 })), 409, {
      key: "tier_limit_exceeded",
      details: `Tier structure ${FULL} already has the maximum of 10 tiers`,
    });
  });

  it("the limit is the project's tier_limit, for both forms", async () => {
    const before = world.demo.settings;
    const raised = await control(world.app, {
      method: "PATCH",
      path: "/__mock/projects/demo/settings",
      body: { tier_limit: 12 },
    });
    expect(raised.body.settings).toEqual({ ...before, tier_limit: 12 });
    expect((await post(FULL, gaTier({ min_value: 50_000, max_value: 50_999 }))).status).toBe(200);
    const beta = await post(FULL, {
      name: "Beta",
      qualification_rules: { type: "POINTS", min_value: 60_000 },
    });
    expect(beta.status).toBe(200);
    expect(beta.body.qualification_rules).toEqual({ type: "POINTS", min_value: 60_000 });
    for (const body of [
      gaTier({ min_value: 70_000 }),
      { name: "Beta", qualification_rules: { type: "POINTS", min_value: 70_000 } },
    ])
      await expectRefusedUnchanged(world, () => post(FULL, body), 409, {
        details: `Tier structure ${FULL} already has the maximum of 12 tiers`,
      });
  });
});

describe("the project's tier_limit", () => {
  beforeEach(freshWorld);

  const patch = (body: unknown) =>
    control(world.app, { method: "PATCH", path: "/__mock/projects/demo/settings", body });

  it("is 1 to 100; another value is 400 and changes nothing", async () => {
    const before = world.demo.settings;
    for (const tier_limit of [0, 101, 10.5, "12"]) {
      const res = await patch({ tier_limit });
      expect(res.status, String(tier_limit)).toBe(400);
    }
    expect(world.demo.settings).toEqual(before);
  });

  it("cannot go below what a structure already holds (409 conflict, nothing changes); null brings back 10", async () => {
    const before = world.demo.settings;
    const res = await patch({ tier_limit: 9 });
    expectError(res, 409, {
      key: "conflict",
      details: "tier_limit 9 is below the 10 tiers a tier structure of project demo already holds",
    });
    expect(world.demo.settings).toEqual(before);
    await patch({ tier_limit: 11 });
    expect((await post(FULL, gaTier({ min_value: 50_000 }))).status).toBe(200);
    expectError(await patch({ tier_limit: null }), 409, {
      details: "tier_limit 10 is below the 11 tiers a tier structure of project demo already holds",
    });
    expect(world.demo.settings).toEqual({ ...before, tier_limit: 11 });
  });

  it("a project's state holds no structure past its limit, and reads back under it", async () => {
    await patch({ tier_limit: 11 });
    // A fraction, which only the GA form makes: the state holds it, and reads it back.
    await post(FULL, gaTier({ min_value: 50_000.5 }));
    const state = await control(world.app, { method: "GET", path: "/__mock/projects/demo/state" });
    const again = await control(world.app, {
      method: "PUT",
      path: "/__mock/projects/demo/state",
      body: state.body,
    });
    expect(again.status).toBe(200);
    const tiers = world.demo.tierStructures.get(FULL).tiers;
    expect(tiers.at(-1)?.qualification_rules).toEqual({ type: "POINTS", min_value: 50_000.5 });
    const lowered = { ...state.body, project: { ...state.body.project, settings: {} } };
    const refused = await control(world.app, {
      method: "PUT",
      path: "/__mock/projects/demo/state",
      body: lowered,
    });
    expectError(refused, 400, {
      key: "invalid_payload",
      details: "$.tier_structures[1].tiers: should NOT have more than 10 items",
    });
  });
});

describe("POST .../tiers - a GA-form body that breaks TierCreateRequest is 400 invalid_payload, and changes nothing", () => {
  beforeAll(freshWorld);

  const rules = (r: Record<string, unknown>) => ({ name: "Gold", qualification_rules: r });
  const CASES: [string, unknown, string][] = [
    [
      "POINTS with points null",
      rules({ type: "POINTS", points: null }),
      "Property .qualification_rules.points is required when type is POINTS",
    ],
    [
      "POINTS_AND_SEGMENT without points",
      rules({ type: "POINTS_AND_SEGMENT", segment: { id: "seg_demo_vip" } }),
      "Property .qualification_rules.points is required when type is POINTS_AND_SEGMENT",
    ],
    [
      "POINTS_AND_SEGMENT without a segment",
      rules({ type: "POINTS_AND_SEGMENT", points: { min_value: 5000 } }),
      "Property .qualification_rules.segment is required when type is POINTS_AND_SEGMENT",
    ],
    [
      "POINTS_AND_SEGMENT with segment null",
      rules({ type: "POINTS_AND_SEGMENT", points: { min_value: 5000 }, segment: null }),
      "Property .qualification_rules.segment is required when type is POINTS_AND_SEGMENT",
    ],
    [
      "POINTS with a segment",
      rules({ type: "POINTS", points: { min_value: 5000 }, segment: { id: "seg_demo_vip" } }),
      "Property .qualification_rules.segment is not allowed when type is POINTS",
    ],
    [
      "points without min_value",
      rules({ type: "POINTS", points: { max_value: 5000 } }),
      "Property .qualification_rules.points.min_value is required",
    ],
    [
      "a max_value below min_value",
      rules({ type: "POINTS", points: { min_value: 6000, max_value: 5999 } }),
      "Property .qualification_rules.points.max_value should be >= min_value (6000)",
    ],
    [
      "a negative min_value",
      rules({ type: "POINTS", points: { min_value: -1 } }),
      "Property .qualification_rules.points.min_value should be >= 0",
    ],
    [
      "a min_value past 1,000,000,000",
      rules({ type: "POINTS", points: { min_value: 1_000_000_001 } }),
      "Property .qualification_rules.points.min_value should be <= 1000000000",
    ],
    [
      "a string max_value",
      rules({ type: "POINTS", points: { min_value: 1, max_value: "9" } }),
      "Property .qualification_rules.points.max_value should be number",
    ],
    [
      "an unknown property in points",
      rules({ type: "POINTS", points: { min_value: 1, step: 1 } }),
      "Property .qualification_rules.points.step is not allowed",
    ],
    [
      "the beta's SEGMENT type",
      rules({ type: "SEGMENT", points: { min_value: 1 } }),
      "Property .qualification_rules.type should be equal to one of the allowed values: POINTS, POINTS_AND_SEGMENT",
    ],
    [
      "an unknown property in segment",
      rules({
        type: "POINTS_AND_SEGMENT",
        points: { min_value: 1 },
        segment: { id: "seg_demo_vip", name: "VIP" },
      }),
      "Property .qualification_rules.segment.name is not allowed",
    ],
    [
      "an unknown property at the top",
      { ...rules({ type: "POINTS", points: { min_value: 1 } }), color: "gold" },
      "Property .color is not allowed",
    ],
    [
      "no name",
      { qualification_rules: { type: "POINTS", points: { min_value: 1 } } },
      "Property .name is required",
    ],
  ];
  for (const [name, body, details] of CASES)
    it(`${name} is 400 invalid_payload`, async () => {
      await expectRefusedUnchanged(world, () => post(DEMO, body), 400, {
        key: "invalid_payload",
        message: "Invalid payload",
        details,
      });
    });

  it("a threshold past 2^53, read exactly, is too big rather than another type", async () => {
    const res = await send(world.app, {
      method: "POST",
      path: PATH(DEMO),
      headers: { ...headers, "Content-Type": "application/json" },
      body: '{"name":"Huge","qualification_rules":{"type":"POINTS","points":{"min_value":9007199254740993}}}',
    });
    expectError(res, 400, {
      details: "Property .qualification_rules.points.min_value should be <= 1000000000",
    });
  });

  it("a body mixing the forms (points beside the beta's flat range) is the beta's, answered as in 0.10.0", async () => {
    await expectRefusedUnchanged(
      world,
      () => post(DEMO, rules({ type: "POINTS", min_value: 5000, points: { min_value: 5000 } })),
      400,
      { details: "Property .qualification_rules.points is not allowed" },
    );
  });
});

describe("POST .../tiers in the GA form - credentials", () => {
  beforeEach(freshWorld);

  const body = gaTier({ min_value: 5000, max_value: 5999 });

  it("strict (the default): the key pair alone or the token alone is 401", async () => {
    const token = await demoToken(world);
    for (const h of [DEMO_KEYS, { Authorization: `Bearer ${token}` }])
      await expectRefusedUnchanged(world, () => post(DEMO, body, h), 401, { key: "unauthorized" });
  });

  it("either: the key pair alone and the token alone are each enough", async () => {
    const relaxed = buildWorld({ defaults: { v2AuthMode: "either" } });
    const token = await demoToken(relaxed);
    const call = (h: Record<string, string>, min: number) =>
      send(relaxed.app, {
        method: "POST",
        path: PATH(DEMO),
        headers: h,
        body: gaTier({ min_value: min, max_value: min }),
      });
    expect((await call({ ...DEMO_KEYS }, 6000)).status).toBe(200);
    expect((await call({ Authorization: `Bearer ${token}` }, 7000)).status).toBe(200);
  });
});
