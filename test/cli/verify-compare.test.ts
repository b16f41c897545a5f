import { describe, expect, it } from "vitest";
import { Budget, BudgetExhausted } from "../../src/cli/verify/budget.js";
import { compareAnswers } from "../../src/cli/verify/compare.js";
import { DEMO_OBJECTS } from "../../src/cli/verify/config.js";
import { normalizeAnswer } from "../../src/cli/verify/normalize.js";
import { runInputs, TIER_BASE } from "../../src/cli/verify/step.js";
import { STEPS } from "../../src/cli/verify/steps.js";

// The comparison rules of `loyalty-mock verify`, one at a time, on answers built by hand.

const step = (name: string) => {
  const found = STEPS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(name);
  return found;
};
const json = {
  "content-type": "application/json",
  "x-rate-limit-limit": "<present>",
  "x-rate-limit-remaining": "<present>",
};
const ok = (body: unknown) => ({ status: 200, headers: json, body });

describe("verify: comparison", () => {
  it("null matches any type; a property only one side has is named with its side", () => {
    const target = ok({ object: "location", id: "x", updated_at: null, shape: { type: "circle" } });
    const mock = ok({ object: "location", id: "x", updated_at: "<timestamp>", shape: {}, extra: 1 });
    expect(compareAnswers(step("getLocation"), target, mock)).toEqual([
      { path: "body.shape.type", kind: "only-target", target: "string", mock: undefined },
      { path: "body.extra", kind: "only-mock", target: undefined, mock: "number" },
    ]);
  });

  it("null against an object where the service decides it (loyalty_card) is a difference", () => {
    const target = ok({ loyalty_card: null, expiration_date: null });
    const mock = ok({ loyalty_card: { points: 0 }, expiration_date: "<timestamp>" });
    expect(compareAnswers(step("addMember"), target, mock)).toEqual([
      { path: "body.loyalty_card", kind: "type", target: "null", mock: "object" },
    ]);
  });

  it("below metadata only its being an object counts; arrays are judged by their items", () => {
    const target = ok({ metadata: { region: "EU" }, items: [{ a: 1 }, { a: 2 }] });
    const mock = ok({ metadata: {}, items: [{ a: "1" }] });
    expect(compareAnswers(step("getLocation"), target, mock)).toEqual([
      { path: "body.items[].a", kind: "type", target: "number", mock: "string" },
    ]);
  });

  it("errors: the status, then key and message; not details or request ids", () => {
    const target = {
      status: 404,
      headers: json,
      body: { key: "not_found", message: "Resource not found", details: "a" },
    };
    const same = {
      status: 404,
      headers: json,
      body: { key: "not_found", message: "Resource not found", details: "b" },
    };
    expect(compareAnswers(step("location-unknown"), target, same)).toEqual([]);
    const other = {
      status: 400,
      headers: json,
      body: { key: "invalid_payload", message: "Resource not found" },
    };
    expect(compareAnswers(step("location-unknown"), target, other)).toEqual([
      { path: "status", kind: "status", target: 404, mock: 400 },
      { path: "body.key", kind: "value", target: "not_found", mock: "invalid_payload" },
    ]);
  });

  it("the headers a client reads: the media type, and the rate-limit headers on both", () => {
    const mock = { status: 200, headers: { "content-type": "text/html" }, body: {} };
    expect(compareAnswers(step("getLocation"), ok({}), mock).map((difference) => difference.path)).toEqual([
      "headers.content-type",
      "headers.x-rate-limit-limit",
      "headers.x-rate-limit-remaining",
    ]);
  });

  it("normalizing: each side's own objects by name, echoes judged against what that side sent", () => {
    const tier = step("createTier");
    const inputs = runInputs(Date.UTC(2026, 5, 1));
    const sent = tier.request(DEMO_OBJECTS, inputs, "");
    const answer = {
      status: 200,
      headers: { "content-type": "application/json; charset=utf-8", "x-rate-limit-limit": "100" },
      body: {
        ...sent.json,
        id: "lt_0123456789abcdef01",
        tier_structure_id: DEMO_OBJECTS.tier_structure_id,
        created_at: "2026-06-01T00:00:00.000Z",
      },
    };
    const normalized = normalizeAnswer(answer, tier, sent, { objects: DEMO_OBJECTS, secrets: [] });
    expect(normalized).toEqual({
      status: 200,
      headers: { "content-type": "application/json", "x-rate-limit-limit": "<present>" },
      body: {
        name: "<sent>",
        qualification_rules: "<sent>",
        metadata: "<sent>",
        id: "<lt_id>",
        tier_structure_id: "<objects.tier_structure_id>",
        created_at: "<timestamp>",
      },
    });
    expect(inputs.tierPoints).toBe(TIER_BASE + 151 * 86_400);
  });
});

describe("verify: normalizing errors", () => {
  it("keeps error keys and word-like values; masks generated ids, request ids and the side's own ids", () => {
    const location = step("location-unknown");
    const sent = location.request(DEMO_OBJECTS, runInputs(0), "");
    const body = {
      code: 400,
      key: "invalid_payload",
      message: "Invalid payload",
      details: `Cannot use ${DEMO_OBJECTS.location_id} with cust_1a2b3c4d5e6f7a8b9c0d1e2f`,
      request_id: "v-0a885062c80375740f",
      resource_id: "cust_1a2b3c4d5e6f7a8b9c0d1e2f",
      resource_type: "customer_segment",
    };
    const answer = { status: 400, headers: {}, body };
    expect(normalizeAnswer(answer, location, sent, { objects: DEMO_OBJECTS, secrets: [] }).body).toEqual({
      code: 400,
      key: "invalid_payload",
      message: "Invalid payload",
      details: "Cannot use <objects.location_id> with cust_1a2b3c4d5e6f7a8b9c0d1e2f",
      request_id: "<request_id>",
      resource_id: "<cust_id>",
      resource_type: "customer_segment",
    });
  });
});

describe("verify: the call budget", () => {
  it("stops before a call the scenario could not finish with, and on a 429", () => {
    const budget = new Budget();
    budget.spend(16);
    budget.read(200, { "x-rate-limit-remaining": "15" });
    budget.spend(15);
    budget.read(200, { "x-rate-limit-remaining": "3" });
    expect(() => budget.spend(14)).toThrow(BudgetExhausted);
    expect(() => new Budget().read(429, { "x-rate-limit-retry": "1800000000" })).toThrow(
      "the target answered 429: its rate limit is used up (until 2027-01-15T08:00:00.000Z)",
    );
  });
});
