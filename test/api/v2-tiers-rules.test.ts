import { beforeEach, describe, expect, it } from "vitest";
import { send } from "../helpers/http.js";
import { demoToken, expectRefusedUnchanged, v2Headers } from "../helpers/v2.js";
import { buildWorld, OTHER_KEYS, type World } from "../helpers/world.js";

/**
 * POST /v2/loyalties/tier-structures/{id}/tiers - the rules past the body: unknown structure and segment (404),
 * the ten-tier limit (409), overlapping points ranges (403), in FIDELITY.md's order. Every refusal changes nothing.
 */

const DEMO = "lts_d0000000000000001"; // Bronze 0-999, Silver 1000-4999
const FULL = "lts_d0000000000000002"; // 10 tiers, 0-9999
const SEGMENTS = "lts_d0000000000000003"; // VIP (SEGMENT), Regular 0-9999
const OPEN = "lts_d0000000000000004"; // Member 0-999, Gold 1000 and above

let world: World;
let headers: Record<string, string>;

beforeEach(async () => {
  world = buildWorld();
  headers = await v2Headers(world);
});

const post = (structureId: string, body: unknown, h: Record<string, string> = headers) =>
  send(world.app, {
    method: "POST",
    path: `/v2/loyalties/tier-structures/${structureId}/tiers`,
    headers: h,
    body,
  });

const pointsTier = (min_value: number, max_value?: number) => ({
  name: "New tier",
  qualification_rules: { type: "POINTS", min_value, ...(max_value !== undefined && { max_value }) },
});
const segmentTier = (id: string) => ({
  name: "Segment tier",
  qualification_rules: { type: "SEGMENT", segment: { id } },
});

const refuse = (structureId: string, body: unknown, status: number, expected: Record<string, unknown>) =>
  expectRefusedUnchanged(world, () => post(structureId, body), status, expected);

const notFound = (type: string, id: string) => ({
  key: "not_found",
  message: "Resource not found",
  details: `Cannot find ${type} with id ${id}`,
  resource_id: id,
  resource_type: type,
});

function overlap(range: string, tier: string, name: string, tierRange: string) {
  return {
    key: "tier_range_overlap",
    message: "Tier range overlap",
    details: `Points range ${range} overlaps tier ${tier} (${name}, points ${tierRange})`,
    resource_id: tier,
    resource_type: "vl_tier",
  };
}

describe("POST /v2/loyalties/tier-structures/{id}/tiers - 404", () => {
  it("an unknown tier structure is 404 vl_tier_structure", async () => {
    await refuse(
      "lts_0123456789abcdef01",
      pointsTier(0),
      404,
      notFound("vl_tier_structure", "lts_0123456789abcdef01"),
    );
  });

  it("a structure of another project does not exist for the caller: 404, never 403", async () => {
    await refuse(
      "lts_e0000000000000001",
      pointsTier(5000),
      404,
      notFound("vl_tier_structure", "lts_e0000000000000001"),
    );
    const otherHeaders = {
      ...OTHER_KEYS,
      Authorization: `Bearer ${await demoToken(world, "api", OTHER_KEYS)}`,
    };
    await expectRefusedUnchanged(
      world,
      () => post(DEMO, pointsTier(5000), otherHeaders),
      404,
      notFound("vl_tier_structure", DEMO),
    );
  });

  it("an unknown segment is 404 vl_segment", async () => {
    await refuse(SEGMENTS, segmentTier("seg_nope"), 404, notFound("vl_segment", "seg_nope"));
  });

  it("a segment of another project is 404 vl_segment", async () => {
    const otherHeaders = {
      ...OTHER_KEYS,
      Authorization: `Bearer ${await demoToken(world, "api", OTHER_KEYS)}`,
    };
    await expectRefusedUnchanged(
      world,
      () => post("lts_e0000000000000001", segmentTier("seg_demo_vip"), otherHeaders),
      404,
      notFound("vl_segment", "seg_demo_vip"),
    );
  });
});

describe("POST /v2/loyalties/tier-structures/{id}/tiers - 409 tier limit", () => {
  it("a structure holding 10 tiers refuses an eleventh, POINTS or SEGMENT", async () => {
    const limit = {
      key: "tier_limit_exceeded",
      message: "Tier limit exceeded",
      details: `Tier structure ${FULL} already has the maximum of 10 tiers`,
      resource_id: FULL,
      resource_type: "vl_tier_structure",
    };
    await refuse(FULL, pointsTier(100_000), 409, limit);
    await refuse(FULL, segmentTier("seg_demo_vip"), 409, limit);
  });
});

describe("POST /v2/loyalties/tier-structures/{id}/tiers - 403 overlapping ranges", () => {
  const cases: [string, string, ReturnType<typeof pointsTier>, ReturnType<typeof overlap>][] = [
    [
      "inside a tier",
      DEMO,
      pointsTier(2000, 3000),
      overlap("2000-3000", "lt_d0000000000000002", "Silver", "1000-4999"),
    ],
    [
      "sharing the upper end (ends are inclusive)",
      DEMO,
      pointsTier(4999, 6000),
      overlap("4999-6000", "lt_d0000000000000002", "Silver", "1000-4999"),
    ],
    [
      "sharing the lower end",
      DEMO,
      pointsTier(500, 1000),
      overlap("500-1000", "lt_d0000000000000001", "Bronze", "0-999"),
    ],
    [
      "spanning several tiers: the first is named",
      DEMO,
      pointsTier(0, 100_000),
      overlap("0-100000", "lt_d0000000000000001", "Bronze", "0-999"),
    ],
    [
      "a one-point range on a tier",
      DEMO,
      pointsTier(999, 999),
      overlap("999-999", "lt_d0000000000000001", "Bronze", "0-999"),
    ],
    [
      "an open-ended range starting inside a tier",
      DEMO,
      pointsTier(4000),
      overlap("4000 and above", "lt_d0000000000000002", "Silver", "1000-4999"),
    ],
    [
      "a closed range above an open-ended tier",
      OPEN,
      pointsTier(50_000, 60_000),
      overlap("50000-60000", "lt_d0000000000000302", "Gold", "1000 and above"),
    ],
    [
      "an open-ended range above an open-ended tier",
      OPEN,
      pointsTier(1_000_000),
      overlap("1000000 and above", "lt_d0000000000000302", "Gold", "1000 and above"),
    ],
    [
      "a POINTS tier beside a SEGMENT tier",
      SEGMENTS,
      pointsTier(5000, 6000),
      overlap("5000-6000", "lt_d0000000000000202", "Regular", "0-9999"),
    ],
  ];
  for (const [name, structure, body, expected] of cases) {
    it(`${name} is 403 tier_range_overlap naming the tier`, async () => {
      await refuse(structure, body, 403, expected);
    });
  }

  it("a range just past the last closed tier is accepted, and a tier just created counts for the next", async () => {
    const created = await post(DEMO, pointsTier(5000));
    expect(created.status).toBe(200);
    await refuse(
      DEMO,
      pointsTier(7000, 8000),
      403,
      overlap("7000-8000", created.body.id, "New tier", "5000 and above"),
    );
  });

  it("a gap between tiers can be filled exactly", async () => {
    expect((await post(DEMO, pointsTier(5000, 5999))).status).toBe(200);
    expect((await post(DEMO, pointsTier(7000, 7999))).status).toBe(200);
    expect((await post(DEMO, pointsTier(6000, 6999))).status).toBe(200);
  });
});

describe("POST /v2/loyalties/tier-structures/{id}/tiers - order of the checks", () => {
  it("unknown structure before unknown segment", async () => {
    await refuse("lts_nope", segmentTier("seg_nope"), 404, { resource_type: "vl_tier_structure" });
  });

  it("unknown segment before the tier limit", async () => {
    await refuse(FULL, segmentTier("seg_nope"), 404, notFound("vl_segment", "seg_nope"));
  });

  it("the tier limit before an overlap", async () => {
    await refuse(FULL, pointsTier(500, 600), 409, { key: "tier_limit_exceeded" });
  });
});
