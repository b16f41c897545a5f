import { describe, expect, it } from "vitest";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, OTHER_KEYS, storeSnapshot, type World } from "../helpers/world.js";

const NOW = "2026-11-20T10:00:00.000Z";
const ALICE_CARD = "v_5AiF5A6ezrYeJTzejQcWIDr2"; // DEMO-HELD-2345: 1450 points, balance 1250
const REF_ALICE = "v_kOGTdcebVI7WeRzeBvVnXIvr";

function track(world: World, body: unknown, headers: Record<string, string> = DEMO_KEYS) {
  return send(world.app, { method: "POST", path: "/v1/events", headers, body });
}

describe("POST /v1/events - success", () => {
  it("records the event for a new customer and answers with the event object", async () => {
    const world = buildWorld();
    const res = await track(world, {
      event: "user_subscribed",
      customer: { source_id: "sub-1", name: "Sub One", email: "sub-1@example.com", metadata: { tier: "x" } },
      metadata: { plan: "pro", seats: 3, extra: "kept" },
    });
    expect(res.status).toBe(200);
    const customerId = res.body.customer.id as string;
    expect(customerId).toMatch(/^cust_[A-Za-z0-9]{24}$/);
    expect(res.body).toEqual({
      object: "event",
      type: "user_subscribed",
      customer: {
        id: customerId,
        source_id: "sub-1",
        name: "Sub One",
        email: "sub-1@example.com",
        metadata: { tier: "x" },
        object: "customer",
      },
      referral: null,
      loyalty: null,
      metadata: { plan: "pro", seats: 3, extra: "kept" },
    });
    expect(Object.keys(res.body)).toEqual(["object", "type", "customer", "referral", "loyalty", "metadata"]);
    const event = world.demo.events.list().at(-1);
    expect(event).toMatchObject({
      id: expect.stringMatching(/^evcus_/),
      type: "user_subscribed",
      customer_id: customerId,
      metadata: { plan: "pro", seats: 3, extra: "kept" },
      created_at: NOW,
      referral: null,
      loyalty: null,
      earned: [],
    });
    expect(world.demo.customers.get(customerId)).toMatchObject({ source_id: "sub-1", created_at: NOW });
  });

  it("an event without metadata answers metadata {}", async () => {
    const world = buildWorld();
    const res = await track(world, { event: "loyalty_bonus", customer: { source_id: "erin@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({});
    expect(res.body.customer.id).toBe("cust_demo_erin");
  });

  it("an earning rule pays its points to the customer's card in the rule's campaign", async () => {
    const world = buildWorld();
    world.clock.advance(60);
    const res = await track(world, {
      event: "user_subscribed",
      customer: { source_id: "alice@example.com" },
      metadata: { plan: "basic" },
    });
    expect(res.status).toBe(200);
    expect(res.body.loyalty).toBeNull();
    const card = world.demo.vouchers.get(ALICE_CARD);
    expect(card.loyalty_card).toMatchObject({ points: 1550, balance: 1350 });
    expect(card.updated_at).toBe("2026-11-20T10:01:00.000Z");
    expect(world.demo.events.list().at(-1)?.earned).toEqual([
      { earning_rule_id: "lern_d0000000000000001", voucher_id: ALICE_CARD, points: 100, points_after: 1550 },
    ]);
  });

  it("an INACTIVE earning rule pays nothing: the card, its updated_at and the event's earnings stay as they were", async () => {
    const world = buildWorld();
    const rule = world.demo.earningRules.get("lern_d0000000000000001");
    world.demo.earningRules.put({ ...rule, status: "INACTIVE" });
    const before = world.demo.vouchers.get(ALICE_CARD);
    world.clock.advance(60);
    const res = await track(world, {
      event: "user_subscribed",
      customer: { source_id: "alice@example.com" },
      metadata: { plan: "basic" },
    });
    expect(res.status).toBe(200);
    expect(world.demo.vouchers.get(ALICE_CARD)).toEqual(before);
    expect(world.demo.vouchers.get(ALICE_CARD).loyalty_card).toMatchObject({ points: 1450, balance: 1250 });
    expect(world.demo.events.list().at(-1)?.earned).toEqual([]);
  });

  it("of two rules for one event only the ACTIVE one pays", async () => {
    const world = buildWorld();
    const active = world.demo.earningRules.get("lern_d0000000000000002"); // loyalty_bonus, 250 points
    world.demo.earningRules.put({
      ...active,
      id: "lern_d00000000000000ff",
      name: "an old bonus, switched off",
      status: "INACTIVE",
      loyalty: { type: "FIXED", points: 1000 },
    });
    const res = await track(world, { event: "loyalty_bonus", customer: { id: "cust_demo_alice" } });
    expect(res.status).toBe(200);
    expect(world.demo.vouchers.get(ALICE_CARD).loyalty_card).toMatchObject({ points: 1700, balance: 1500 });
    expect(world.demo.events.list().at(-1)?.earned).toEqual([
      { earning_rule_id: "lern_d0000000000000002", voucher_id: ALICE_CARD, points: 250, points_after: 1700 },
    ]);
  });

  it("loyalty.code names the card that earns, which the customer must hold", async () => {
    const world = buildWorld();
    const res = await track(world, {
      event: "loyalty_bonus",
      customer: { id: "cust_demo_alice" },
      loyalty: { code: "DEMO-HELD-2345" },
    });
    expect(res.status).toBe(200);
    expect(world.demo.vouchers.get(ALICE_CARD).loyalty_card).toMatchObject({ points: 1700, balance: 1500 });
    expect(world.demo.events.list().at(-1)?.loyalty).toEqual({ code: "DEMO-HELD-2345" });
  });

  it("a customer without a card in the rule's campaign earns nothing, and the event is still recorded", async () => {
    const world = buildWorld();
    const before = JSON.stringify(world.demo.vouchers.list());
    const events = world.demo.events.size;
    const res = await track(world, {
      event: "user_subscribed",
      customer: { source_id: "erin@example.com" },
      metadata: { plan: "pro" },
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(world.demo.vouchers.list())).toBe(before);
    expect(world.demo.events.size).toBe(events + 1);
  });

  it("a card assigned through the members endpoint earns on the next event", async () => {
    const world = buildWorld();
    const joined = await send(world.app, {
      method: "POST",
      path: "/v1/loyalties/camp_demo_loyalty/members",
      headers: DEMO_KEYS,
      body: { customer: { source_id: "earner" } },
    });
    await track(world, {
      event: "user_subscribed",
      customer: { source_id: "earner" },
      metadata: { plan: "x" },
    });
    await track(world, {
      event: "user_subscribed",
      customer: { source_id: "earner" },
      metadata: { plan: "x" },
    });
    expect(world.demo.vouchers.get(joined.body.id).loyalty_card).toMatchObject({ points: 200, balance: 200 });
  });

  it("a referral code records a conversion for its referrer and is stored with the event", async () => {
    const world = buildWorld();
    const res = await track(world, {
      event: "referral_converted",
      customer: { source_id: "referred-1" },
      referral: { code: "REF-ALICE" },
      metadata: { order_value: 120 },
    });
    expect(res.status).toBe(200);
    expect(res.body.referral).toBeNull();
    expect(world.demo.vouchers.get(REF_ALICE).redemption.redeemed_quantity).toBe(1);
    expect(world.demo.events.list().at(-1)?.referral).toEqual({
      code: "REF-ALICE",
      referrer_id: "cust_demo_alice",
      voucher_id: REF_ALICE,
    });
  });

  it("a referrer_id given by the caller is kept as given", async () => {
    const world = buildWorld();
    await track(world, {
      event: "referral_converted",
      customer: { source_id: "referred-2" },
      referral: { code: "REF-ALICE", referrer_id: "alice@example.com" },
    });
    expect(world.demo.events.list().at(-1)?.referral).toMatchObject({ referrer_id: "alice@example.com" });
  });

  it("metadata checks follow the schema: types, arrays, dates; unnamed properties pass; null is absent", async () => {
    const world = buildWorld();
    const ok = await track(world, {
      event: "user_subscribed",
      customer: { source_id: "types" },
      metadata: { plan: "pro", seats: null, trial: false, anything: { nested: [1] } },
    });
    expect(ok.status).toBe(200);
  });

  it("works with a bearer token of scope events; a token of another scope is 403", async () => {
    const world = buildWorld();
    const token = await send(world.app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      form: true,
      body: { grant_type: "client_credentials", scope: "events" },
    });
    const res = await track(
      world,
      { event: "loyalty_bonus", customer: { source_id: "tok" } },
      { Authorization: `Bearer ${token.body.access_token}` },
    );
    expect(res.status).toBe(200);
    const wrongScope = await send(world.app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      form: true,
      body: { grant_type: "client_credentials", scope: "loyalties" },
    });
    expectError(
      await track(
        world,
        { event: "loyalty_bonus", customer: { source_id: "tok" } },
        { Authorization: `Bearer ${wrongScope.body.access_token}` },
      ),
      403,
      { key: "forbidden", details: /events/ },
    );
  });
});

describe("POST /v1/events - refusals change nothing", () => {
  const longName = "e".repeat(301);
  const rows: {
    name: string;
    body: unknown;
    headers?: Record<string, string>;
    status: number;
    expected: Parameters<typeof expectError>[2];
  }[] = [
    {
      name: "an event name not in the project's event schema is 400 event_not_defined",
      body: { event: "never_defined", customer: { source_id: "x" } },
      status: 400,
      expected: {
        key: "event_not_defined",
        message: "Event not defined",
        details: "Custom event 'never_defined' is not defined in the project's event schema",
      },
    },
    {
      name: "a required metadata property missing is 400 metadata_validation_failed",
      body: { event: "user_subscribed", customer: { source_id: "x" }, metadata: { seats: 2 } },
      status: 400,
      expected: {
        key: "metadata_validation_failed",
        message: "Metadata validation failed",
        details: "Property .metadata.plan is required (event schema of 'user_subscribed')",
      },
    },
    {
      name: "no metadata at all when a property is required is 400 metadata_validation_failed",
      body: { event: "user_subscribed", customer: { source_id: "x" } },
      status: 400,
      expected: { key: "metadata_validation_failed", details: /Property \.metadata\.plan is required/ },
    },
    {
      name: "a metadata property of the wrong type is 400 metadata_validation_failed naming it",
      body: { event: "user_subscribed", customer: { source_id: "x" }, metadata: { plan: "p", seats: "two" } },
      status: 400,
      expected: { key: "metadata_validation_failed", details: /Property \.metadata\.seats should be number/ },
    },
    {
      name: "a boolean metadata property given as a string is refused",
      body: { event: "user_subscribed", customer: { source_id: "x" }, metadata: { plan: "p", trial: "yes" } },
      status: 400,
      expected: {
        key: "metadata_validation_failed",
        details: /Property \.metadata\.trial should be boolean/,
      },
    },
    {
      name: "an empty event name is 400 invalid_payload",
      body: { event: "", customer: { source_id: "x" } },
      status: 400,
      expected: {
        key: "invalid_payload",
        details: "Property .event should NOT be shorter than 1 characters",
      },
    },
    {
      name: "an event name over 300 characters is 400 invalid_payload",
      body: { event: longName, customer: { source_id: "x" } },
      status: 400,
      expected: {
        key: "invalid_payload",
        details: "Property .event should NOT be longer than 300 characters",
      },
    },
    {
      name: "a missing event is 400 invalid_payload",
      body: { customer: { source_id: "x" } },
      status: 400,
      expected: { key: "invalid_payload", details: "Property .event is required" },
    },
    {
      name: "a missing customer is 400 invalid_payload",
      body: { event: "loyalty_bonus" },
      status: 400,
      expected: { key: "invalid_payload", details: "Property .customer is required" },
    },
    {
      name: "a customer given as a string is 400: this endpoint takes the object only",
      body: { event: "loyalty_bonus", customer: "alice@example.com" },
      status: 400,
      expected: { key: "invalid_payload", details: "Property .customer should be object" },
    },
    {
      name: "a customer without source_id or id is 400",
      body: { event: "loyalty_bonus", customer: { name: "Anon" } },
      status: 400,
      expected: {
        key: "invalid_payload",
        details: "Property .customer should have property id or source_id",
      },
    },
    {
      name: "an unknown customer id is 404 customer",
      body: { event: "loyalty_bonus", customer: { id: "cust_nope" } },
      status: 404,
      expected: { key: "not_found", resource_type: "customer", resource_id: "cust_nope" },
    },
    {
      name: "a referral that is not an object is 400",
      body: { event: "loyalty_bonus", customer: { source_id: "x" }, referral: "REF-ALICE" },
      status: 400,
      expected: { key: "invalid_payload", details: "Property .referral should be object" },
    },
    {
      name: "a referral code of the wrong type is 400",
      body: { event: "loyalty_bonus", customer: { source_id: "x" }, referral: { code: 7 } },
      status: 400,
      expected: { key: "invalid_payload", details: "Property .referral.code should be string" },
    },
    {
      name: "a loyalty object of the wrong shape is 400",
      body: { event: "loyalty_bonus", customer: { source_id: "x" }, loyalty: { code: ["A"] } },
      status: 400,
      expected: { key: "invalid_payload", details: "Property .loyalty.code should be string" },
    },
    {
      name: "an unknown referral code is 404 voucher",
      body: { event: "loyalty_bonus", customer: { source_id: "x" }, referral: { code: "REF-NOPE" } },
      status: 404,
      expected: { key: "not_found", resource_type: "voucher", resource_id: "REF-NOPE" },
    },
    {
      name: "a code that is not a referral code is 400 invalid_referral_code",
      body: { event: "loyalty_bonus", customer: { source_id: "x" }, referral: { code: "DEMO-V8TK-XZ5F" } },
      status: 400,
      expected: { key: "invalid_referral_code", details: "Voucher 'DEMO-V8TK-XZ5F' is not a referral code" },
    },
    {
      name: "an unknown loyalty card code is 404 voucher",
      body: { event: "loyalty_bonus", customer: { source_id: "x" }, loyalty: { code: "DEMO-NOPE" } },
      status: 404,
      expected: { key: "not_found", resource_type: "voucher", resource_id: "DEMO-NOPE" },
    },
    {
      name: "a loyalty card held by someone else is 400 loyalty_card_not_assigned",
      body: {
        event: "loyalty_bonus",
        customer: { id: "cust_demo_bob" },
        loyalty: { code: "DEMO-HELD-2345" },
      },
      status: 400,
      expected: {
        key: "loyalty_card_not_assigned",
        details: "Loyalty card 'DEMO-HELD-2345' is not held by customer 'cust_demo_bob'",
      },
    },
    {
      name: "a loyalty card named for a customer who does not exist yet is refused without creating them",
      body: {
        event: "loyalty_bonus",
        customer: { source_id: "brand-new" },
        loyalty: { code: "DEMO-HELD-2345" },
      },
      status: 400,
      expected: {
        key: "loyalty_card_not_assigned",
        details: "Loyalty card 'DEMO-HELD-2345' is not held by the event's customer",
      },
    },
    {
      name: "an open card named for a customer who does not exist yet is refused too",
      body: {
        event: "loyalty_bonus",
        customer: { source_id: "brand-new" },
        loyalty: { code: "DEMO-V8TK-XZ5F" },
      },
      status: 400,
      expected: {
        key: "loyalty_card_not_assigned",
        details: "Loyalty card 'DEMO-V8TK-XZ5F' is not held by the event's customer",
      },
    },
    {
      name: "a card the customer holds that is not a loyalty card is 400 loyalty_card_not_assigned",
      body: {
        event: "loyalty_bonus",
        customer: { id: "cust_demo_alice" },
        loyalty: { code: "REF-ALICE" },
      },
      status: 400,
      expected: {
        key: "loyalty_card_not_assigned",
        details: "Loyalty card 'REF-ALICE' is not held by customer 'cust_demo_alice'",
      },
    },
    {
      name: "no credentials is 401",
      body: { event: "loyalty_bonus", customer: { source_id: "x" } },
      headers: {},
      status: 401,
      expected: { key: "unauthorized" },
    },
    {
      name: "a key without the events permission is 403",
      body: { event: "loyalty_bonus", customer: { source_id: "x" } },
      headers: { "X-App-Id": "demo-readonly-app-id", "X-App-Token": "demo-readonly-app-token" },
      status: 403,
      expected: { key: "forbidden" },
    },
    {
      name: "an event defined only in the demo project is unknown to the other project",
      body: { event: "cart_abandoned", customer: { source_id: "x" } },
      headers: OTHER_KEYS,
      status: 400,
      expected: { key: "event_not_defined" },
    },
  ];

  for (const row of rows) {
    it(row.name, async () => {
      const world = buildWorld();
      const before = [storeSnapshot(world.demo), storeSnapshot(world.other)];
      const res = await track(world, row.body, row.headers ?? DEMO_KEYS);
      expectError(res, row.status, row.expected);
      expect([storeSnapshot(world.demo), storeSnapshot(world.other)]).toEqual(before);
    });
  }

  it("a refused event earns no points, even when the customer holds a card", async () => {
    const world = buildWorld();
    const res = await track(world, {
      event: "user_subscribed",
      customer: { id: "cust_demo_alice" },
      metadata: {},
    });
    expectError(res, 400, { key: "metadata_validation_failed" });
    expect(world.demo.vouchers.get(ALICE_CARD).loyalty_card).toMatchObject({ points: 1450, balance: 1250 });
  });
});
