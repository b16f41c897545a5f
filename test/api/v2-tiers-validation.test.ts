import { beforeAll, describe, expect, it } from "vitest";
import { expectError, send } from "../helpers/http.js";
import { expectRefusedUnchanged, v2Headers } from "../helpers/v2.js";
import { buildWorld, type World } from "../helpers/world.js";

/**
 * POST /v2/loyalties/tier-structures/{id}/tiers - every way a body can be invalid is 400 invalid_payload with
 * details naming the property and the rule, and changes nothing. Strict at every level.
 */

const DEMO = "lts_d0000000000000001";
const PATH = `/v2/loyalties/tier-structures/${DEMO}/tiers`;
const OK_RULES = { type: "POINTS", min_value: 5000, max_value: 5999 };

let world: World;
let headers: Record<string, string>;

beforeAll(async () => {
  world = buildWorld();
  headers = await v2Headers(world);
});

const post = (body: unknown, path = PATH) => send(world.app, { method: "POST", path, headers, body });

const rules = (r: Record<string, unknown>) => ({ name: "Gold", qualification_rules: r });

const CASES: [string, unknown, string][] = [
  // The spec's rules for qualification_rules, one details text per rule.
  [
    "POINTS without min_value",
    rules({ type: "POINTS" }),
    "Property .qualification_rules.min_value is required when type is POINTS",
  ],
  [
    "POINTS with max_value but no min_value",
    rules({ type: "POINTS", max_value: 10 }),
    "Property .qualification_rules.max_value is not allowed without min_value",
  ],
  [
    "POINTS with max_value below min_value",
    rules({ type: "POINTS", min_value: 6000, max_value: 5999 }),
    "Property .qualification_rules.max_value should be >= min_value (6000)",
  ],
  [
    "POINTS with a segment",
    rules({ ...OK_RULES, segment: { id: "seg_demo_vip" } }),
    "Property .qualification_rules.segment is not allowed when type is POINTS",
  ],
  [
    "SEGMENT without segment",
    rules({ type: "SEGMENT" }),
    "Property .qualification_rules.segment is required when type is SEGMENT",
  ],
  [
    "SEGMENT with segment null",
    rules({ type: "SEGMENT", segment: null }),
    "Property .qualification_rules.segment is required when type is SEGMENT",
  ],
  [
    "SEGMENT with min_value",
    rules({ type: "SEGMENT", segment: { id: "seg_demo_vip" }, min_value: 0 }),
    "Property .qualification_rules.min_value is not allowed when type is SEGMENT",
  ],
  [
    "SEGMENT with max_value",
    rules({ type: "SEGMENT", segment: { id: "seg_demo_vip" }, max_value: 10 }),
    "Property .qualification_rules.max_value is not allowed when type is SEGMENT",
  ],
  [
    "SEGMENT without segment.id",
    rules({ type: "SEGMENT", segment: {} }),
    "Property .qualification_rules.segment.id is required",
  ],
  [
    "SEGMENT with an empty segment.id",
    rules({ type: "SEGMENT", segment: { id: "" } }),
    "Property .qualification_rules.segment.id should NOT be shorter than 1 characters",
  ],
  // Types and ranges of the fields.
  ["no qualification_rules", { name: "Gold" }, "Property .qualification_rules is required"],
  [
    "qualification_rules not an object",
    { name: "Gold", qualification_rules: "POINTS" },
    "Property .qualification_rules should be object",
  ],
  ["no type", rules({ min_value: 5000 }), "Property .qualification_rules.type is required"],
  [
    "an unknown type",
    rules({ type: "POINTS_AND_SEGMENT", min_value: 5000 }),
    "Property .qualification_rules.type should be equal to one of the allowed values: POINTS, SEGMENT",
  ],
  [
    "a negative min_value",
    rules({ type: "POINTS", min_value: -1 }),
    "Property .qualification_rules.min_value should be >= 0",
  ],
  [
    "a fractional min_value",
    rules({ type: "POINTS", min_value: 1.5 }),
    "Property .qualification_rules.min_value should be integer",
  ],
  [
    "a string min_value",
    rules({ type: "POINTS", min_value: "5000" }),
    "Property .qualification_rules.min_value should be number",
  ],
  [
    "a null max_value",
    rules({ type: "POINTS", min_value: 5000, max_value: null }),
    "Property .qualification_rules.max_value should be number",
  ],
  // An object with no value to compare (JSON can write one) is refused as not a number, not a 500.
  [
    "a max_value that is an object with no value",
    rules({ type: "POINTS", min_value: 5000, max_value: { valueOf: 1, toString: 1 } }),
    "Property .qualification_rules.max_value should be number",
  ],
  [
    "a min_value that is an object with no value",
    rules({ type: "POINTS", min_value: { valueOf: 1, toString: 1 }, max_value: 5999 }),
    "Property .qualification_rules.min_value should be number",
  ],
  [
    "a negative max_value",
    rules({ type: "POINTS", min_value: 0, max_value: -5 }),
    "Property .qualification_rules.max_value should be >= 0",
  ],
  ["no name", { qualification_rules: OK_RULES }, "Property .name is required"],
  [
    "an empty name",
    { name: "", qualification_rules: OK_RULES },
    "Property .name should NOT be shorter than 1 characters",
  ],
  [
    "a name of 201 characters",
    { name: "x".repeat(201), qualification_rules: OK_RULES },
    "Property .name should NOT be longer than 200 characters",
  ],
  ["a numeric name", { name: 7, qualification_rules: OK_RULES }, "Property .name should be string"],
  ["downgrade without type", { ...rules(OK_RULES), downgrade: {} }, "Property .downgrade.type is required"],
  [
    "an unknown downgrade type",
    { ...rules(OK_RULES), downgrade: { type: "DEMOTE" } },
    "Property .downgrade.type should be equal to one of the allowed values: INHERIT, NO_DOWNGRADE",
  ],
  [
    "downgrade as a string",
    { ...rules(OK_RULES), downgrade: "INHERIT" },
    "Property .downgrade should be object",
  ],
  ["metadata as an array", { ...rules(OK_RULES), metadata: ["a"] }, "Property .metadata should be object"],
  // Unknown properties, at every level.
  [
    "an unknown top-level property",
    { ...rules(OK_RULES), tier_structure_id: DEMO },
    "Property .tier_structure_id is not allowed",
  ],
  [
    "an unknown property in qualification_rules",
    rules({ ...OK_RULES, points: 1 }),
    "Property .qualification_rules.points is not allowed",
  ],
  [
    "an unknown property in segment",
    rules({ type: "SEGMENT", segment: { id: "seg_demo_vip", name: "VIP" } }),
    "Property .qualification_rules.segment.name is not allowed",
  ],
  [
    "an unknown property in downgrade",
    { ...rules(OK_RULES), downgrade: { type: "INHERIT", after: 30 } },
    "Property .downgrade.after is not allowed",
  ],
  // The body itself.
  ["a JSON array body", [rules(OK_RULES)], "Request body should be object"],
];

describe("POST /v2/loyalties/tier-structures/{id}/tiers - invalid bodies are 400", () => {
  for (const [name, body, details] of CASES) {
    it(`${name} is 400 invalid_payload`, async () => {
      await expectRefusedUnchanged(world, () => post(body), 400, {
        key: "invalid_payload",
        message: "Invalid payload",
        details,
      });
    });
  }

  it("no body at all is 400 invalid_payload", async () => {
    await expectRefusedUnchanged(world, () => post(undefined), 400, {
      key: "invalid_payload",
      details: "Request body should be object",
    });
  });

  it("malformed JSON is 400 invalid_payload", async () => {
    const res = await send(world.app, {
      method: "POST",
      path: PATH,
      headers: { ...headers, "Content-Type": "application/json" },
      body: '{"name": "Gold", ',
    });
    expectError(res, 400, { key: "invalid_payload", details: /^Request body is not valid JSON/ });
  });

  it("a body in another type than JSON is 415 unsupported_media_type", async () => {
    const res = await send(world.app, {
      method: "POST",
      path: PATH,
      headers: { ...headers, "Content-Type": "text/plain" },
      body: "name=Gold",
    });
    expectError(res, 415, { key: "unsupported_media_type" });
  });

  it("a body over the size limit is 413 query_too_large", async () => {
    const small = buildWorld({ bodyLimit: 64 });
    const smallHeaders = await v2Headers(small);
    const res = await send(small.app, {
      method: "POST",
      path: PATH,
      headers: smallHeaders,
      body: { ...rules(OK_RULES), metadata: { note: "x".repeat(100) } },
    });
    expectError(res, 413, { key: "query_too_large" });
    expect(small.demo.tierStructures.get(DEMO).tiers).toHaveLength(2);
  });

  it("an invalid body is 400 even for an unknown structure: the body is judged first", async () => {
    const res = await post({ name: "" }, "/v2/loyalties/tier-structures/lts_nope/tiers");
    expectError(res, 400, { key: "invalid_payload" });
  });

  it("a method neither we nor the beta serve on the path is 405 with an Allow header; the beta's GET is 501", async () => {
    const res = await send(world.app, { method: "PATCH", path: PATH, headers, body: {} });
    expectError(res, 405, { message: "HTTP Method Not Allowed" });
    expect(res.headers.allow).toBe("POST");
    const list = await send(world.app, { method: "GET", path: PATH, headers });
    expectError(list, 501, {
      key: "not_emulated",
      details: "GET /v2/loyalties/tier-structures/{id}/tiers (listTiers) is not emulated by loyalty-mock",
    });
  });

  it("a well-formed request after all of the above still succeeds (the world was not damaged)", async () => {
    const res = await post(rules(OK_RULES));
    expect(res.status).toBe(200);
  });
});
