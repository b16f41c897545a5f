import { describe, expect, it } from "vitest";
import { expectError, send } from "../helpers/http.js";
import {
  buildWorld,
  DEMO_KEYS,
  OTHER_KEYS,
  storeSnapshot,
  TINY_KEYS,
  tinyLoyaltyDocument,
  type World,
  worldWith,
} from "../helpers/world.js";

const NOW = "2026-11-20T10:00:00.000Z";
const FIRST_OPEN = { id: "v_185xlMMyDxJe7ilc7DJu86Ct", code: "DEMO-V8TK-XZ5F" };
const SECOND_OPEN = "DEMO-KE62-2DGD";
const THIRD_OPEN = "DEMO-4SRA-CU58";

function join(world: World, campaign: string, body: unknown, headers: Record<string, string> = DEMO_KEYS) {
  return send(world.app, {
    method: "POST",
    path: `/v1/loyalties/${encodeURIComponent(campaign)}/members`,
    headers,
    body,
  });
}

describe("POST /v1/loyalties/{campaignId}/members - success", () => {
  it("assigns the next open card to a new customer and answers with the whole voucher", async () => {
    const world = buildWorld();
    const res = await join(world, "camp_demo_loyalty", {
      customer: {
        source_id: "new-1@example.com",
        name: "New One",
        email: "new-1@example.com",
        metadata: { a: 1 },
      },
      metadata: { origin: "test" },
      channel: "Website",
      source_id: "crm-new-1",
    });
    expect(res.status).toBe(200);
    const holder = res.body.holder_id as string;
    expect(holder).toMatch(/^cust_[A-Za-z0-9]{24}$/);
    expect(res.body).toEqual({
      id: FIRST_OPEN.id,
      code: FIRST_OPEN.code,
      campaign: "Demo Loyalty Program",
      campaign_id: "camp_demo_loyalty",
      category: "Loyalty",
      category_id: "cat_demo_loyalty",
      categories: [
        {
          id: "cat_demo_loyalty",
          name: "Loyalty",
          hierarchy: 1,
          created_at: "2025-11-01T12:00:00.000Z",
          object: "category",
        },
      ],
      type: "LOYALTY_CARD",
      discount: null,
      gift: null,
      loyalty_card: { points: 0, balance: 0 },
      start_date: null,
      expiration_date: null,
      validity_timeframe: null,
      validity_day_of_week: null,
      active: true,
      additional_info: null,
      metadata: {},
      assets: {
        qr: {
          id: expect.stringMatching(/^U2FsdGVkX1/),
          url: expect.stringMatching(
            /^https:\/\/assets\.loyalty-mock\.invalid\/api\/v1\/assets\/qr\/U2FsdGVkX1/,
          ),
        },
        barcode: {
          id: expect.stringMatching(/^U2FsdGVkX1/),
          url: expect.stringMatching(/\/api\/v1\/assets\/barcode\/U2FsdGVkX1/),
        },
      },
      is_referral_code: false,
      created_at: expect.any(String),
      updated_at: NOW,
      holder_id: holder,
      redemption: {
        quantity: null,
        redeemed_quantity: 0,
        redeemed_points: 0,
        object: "list",
        url: `/v1/vouchers/${FIRST_OPEN.code}/redemptions?page=1&limit=10`,
      },
      publish: {
        object: "list",
        count: 1,
        url: `/v1/vouchers/${FIRST_OPEN.code}/publications?page=1&limit=10`,
      },
      object: "voucher",
    });
    expect(Object.keys(res.body)[0]).toBe("id");
    expect(Object.keys(res.body).at(-1)).toBe("object");

    const customer = world.demo.customers.get(holder);
    expect(customer).toMatchObject({
      source_id: "new-1@example.com",
      name: "New One",
      email: "new-1@example.com",
      metadata: { a: 1 },
      created_at: NOW,
      object: "customer",
    });
    const publication = world.demo.publications.findBySourceId("crm-new-1");
    expect(publication).toMatchObject({
      id: expect.stringMatching(/^pub_[A-Za-z0-9]{24}$/),
      customer_id: holder,
      campaign_id: "camp_demo_loyalty",
      voucher_id: FIRST_OPEN.id,
      channel: "Website",
      source_id: "crm-new-1",
      metadata: { origin: "test" },
      created_at: NOW,
    });
    expect(world.demo.vouchers.get(FIRST_OPEN.id)).toMatchObject({
      holder_id: holder,
      publish: { count: 1 },
    });
  });

  it("hands out cards in a stable order, one per call", async () => {
    const world = buildWorld();
    const codes: string[] = [];
    for (const who of ["a", "b", "c"]) {
      const res = await join(world, "camp_demo_loyalty", { customer: { source_id: `order-${who}` } });
      codes.push(res.body.code);
    }
    expect(codes).toEqual([FIRST_OPEN.code, SECOND_OPEN, THIRD_OPEN]);
  });

  it("finds the campaign by its name as well as by its id", async () => {
    const world = buildWorld();
    const res = await join(world, "Demo Loyalty Program", { customer: { source_id: "by-name" } });
    expect(res.status).toBe(200);
    expect(res.body.campaign_id).toBe("camp_demo_loyalty");
  });

  it("publishes the card named by code, leaving the stable order to the others", async () => {
    const world = buildWorld();
    const named = await join(world, "camp_demo_loyalty", {
      customer: { id: "cust_demo_erin" },
      voucher: THIRD_OPEN,
    });
    expect(named.status).toBe(200);
    expect(named.body).toMatchObject({ code: THIRD_OPEN, holder_id: "cust_demo_erin" });
    const next = await join(world, "camp_demo_loyalty", { customer: { source_id: "after-named" } });
    expect(next.body.code).toBe(FIRST_OPEN.code);
  });

  it("with customer.id uses that customer, ignores source_id and records the fields given", async () => {
    const world = buildWorld();
    const res = await join(world, "camp_demo_loyalty", {
      customer: {
        id: "cust_demo_erin",
        source_id: "ignored@example.com",
        name: "Erin Renamed",
        metadata: { vip: true },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.holder_id).toBe("cust_demo_erin");
    const erin = world.demo.customers.get("cust_demo_erin");
    expect(erin.source_id).toBe("erin@example.com");
    expect(erin.name).toBe("Erin Renamed");
    expect(erin.metadata).toMatchObject({ vip: true });
    expect(erin.updated_at).toBe(NOW);
    expect(world.demo.customers.findBySourceId("ignored@example.com")).toBeUndefined();
  });

  it("with a known source_id updates that customer instead of making another", async () => {
    const world = buildWorld();
    const before = world.demo.customers.size;
    const res = await join(world, "camp_demo_loyalty", {
      customer: { source_id: "erin@example.com", phone: "+1 555 0100" },
    });
    expect(res.body.holder_id).toBe("cust_demo_erin");
    expect(world.demo.customers.size).toBe(before);
    expect(world.demo.customers.get("cust_demo_erin").phone).toBe("+1 555 0100");
  });

  it("takes customer as a bare string, a source_id or a cust_ id, as the service's examples do", async () => {
    const world = buildWorld();
    const bySource = await join(world, "camp_demo_loyalty", { customer: "string-source" });
    expect(bySource.status).toBe(200);
    expect(world.demo.customers.findBySourceId("string-source")?.id).toBe(bySource.body.holder_id);
    const byId = await join(world, "camp_demo_loyalty", { customer: "cust_demo_erin" });
    expect(byId.body.holder_id).toBe("cust_demo_erin");
  });

  it("defaults the publication's channel to API and accepts null optional fields", async () => {
    const world = buildWorld();
    const res = await join(world, "camp_demo_loyalty", {
      customer: { source_id: "nulls" },
      voucher: null,
      source_id: null,
      metadata: null,
      channel: null,
    });
    expect(res.status).toBe(200);
    const [publication] = world.demo.publications.list().filter((p) => p.voucher_id === res.body.id);
    expect(publication).toMatchObject({ channel: "API", source_id: null, metadata: {} });
  });

  it("a card outside its validity window becomes assignable once the clock reaches it", async () => {
    const world = buildWorld();
    const early = await join(world, "camp_demo_loyalty", {
      customer: { source_id: "late" },
      voucher: "DEMO-LATE-2727",
    });
    expectError(early, 400, { key: "voucher_not_active" });
    world.demo.clock.set("2727-02-01T00:00:00.000Z");
    const later = await join(world, "camp_demo_loyalty", {
      customer: { source_id: "late" },
      voucher: "DEMO-LATE-2727",
    });
    expect(later.status).toBe(200);
    expect(later.body.updated_at).toBe("2727-02-01T00:00:00.000Z");
  });

  // The docs and tests call them "not yet valid" and "expired": that must not lapse as the years go by.
  it("the not-yet-valid and expired cards stay so with the clock centuries ahead", async () => {
    const world = buildWorld();
    for (const years of [1, 10, 100, 600]) {
      world.clock.set(`${2026 + years}-11-20T10:00:00.000Z`);
      for (const [voucher, key, details] of [
        ["DEMO-LATE-2727", "voucher_not_active", /is not active yet/],
        ["DEMO-LATE-2728", "voucher_not_active", /is not active yet/],
        ["DEMO-EXPD-2525", "voucher_expired", /has already expired/],
      ] as const)
        expectError(await join(world, "camp_demo_loyalty", { customer: { source_id: "x" }, voucher }), 400, {
          key,
          details,
        });
    }
  });

  it("works with an OAuth token of scope loyalties or api", async () => {
    const world = buildWorld();
    for (const scope of ["loyalties", "api"]) {
      const token = await send(world.app, {
        method: "POST",
        path: "/v1/oauth/token",
        headers: DEMO_KEYS,
        form: true,
        body: { grant_type: "client_credentials", scope },
      });
      const res = await join(
        world,
        "camp_demo_loyalty",
        { customer: { source_id: `token-${scope}` } },
        { Authorization: `Bearer ${token.body.access_token}` },
      );
      expect(res.status).toBe(200);
    }
  });
});

describe("POST /v1/loyalties/{campaignId}/members - cards made on demand", () => {
  it("an AUTO_UPDATE campaign makes a new card in its code format once its cards are gone", async () => {
    const world = buildWorld();
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await join(world, "camp_demo_ondemand", { customer: { source_id: `od-${i}` } });
      expect(res.status).toBe(200);
      codes.push(res.body.code);
    }
    expect(codes.slice(0, 2)).toEqual(["OD-4820193756", "OD-7350918264"]);
    for (const code of codes.slice(2)) expect(code).toMatch(/^OD-\d{10}$/);
    expect(new Set(codes).size).toBe(5);
    const made = world.demo.vouchers.findByCode(codes[4] as string);
    expect(made).toMatchObject({
      id: expect.stringMatching(/^v_[A-Za-z0-9]{24}$/),
      campaign_id: "camp_demo_ondemand",
      type: "LOYALTY_CARD",
      loyalty_card: { points: 0, balance: 0 },
      created_at: NOW,
      publish: { count: 1 },
      // A card made on demand is switched on and held by the customer it was made for.
      active: true,
      holder_id: world.demo.customers.findBySourceId("od-4")?.id,
    });
  });

  it("never makes a code the project has, and refuses once the format has no code left", async () => {
    const world = worldWith(
      tinyLoyaltyDocument({
        codes: ["T-A"],
        type: "AUTO_UPDATE",
        codeConfig: { pattern: "T-#", charset: "AB" },
        joinOnce: false,
      }),
    );
    const tiny = (source: string) =>
      send(world.app, {
        method: "POST",
        path: "/v1/loyalties/camp_tiny/members",
        headers: TINY_KEYS,
        body: { customer: { source_id: source } },
      });
    expect((await tiny("one")).body.code).toBe("T-A");
    expect((await tiny("two")).body.code).toBe("T-B");
    const before = storeSnapshot(world.project);
    expectError(await tiny("three"), 400, {
      key: "no_voucher_suitable_for_publication",
      message: "Couldn't find any voucher suitable for publication",
      details: "Couldn't create new vouchers for publication",
    });
    expect(storeSnapshot(world.project)).toBe(before);
  });

  it("a STATIC campaign with no card left refuses with no_voucher_suitable_for_publication", async () => {
    const world = worldWith(tinyLoyaltyDocument({ codes: ["ONLY-ONE"] }));
    const tiny = (source: string) =>
      send(world.app, {
        method: "POST",
        path: "/v1/loyalties/camp_tiny/members",
        headers: TINY_KEYS,
        body: { customer: { source_id: source } },
      });
    expect((await tiny("first")).status).toBe(200);
    const before = storeSnapshot(world.project);
    const res = await tiny("second");
    expectError(res, 400, {
      key: "no_voucher_suitable_for_publication",
      message: "Couldn't find any voucher suitable for publication",
      details: "Couldn't create new vouchers for publication",
    });
    expect(world.project.customers.findBySourceId("second")).toBeUndefined();
    expect(storeSnapshot(world.project)).toBe(before);
  });
});

/** Each refusal of FIDELITY.md, with its exact body, shown to leave the store as it was. */
describe("POST /v1/loyalties/{campaignId}/members - refusals change nothing", () => {
  const rows: {
    name: string;
    campaign?: string;
    body: unknown;
    headers?: Record<string, string>;
    status: number;
    expected: Record<string, unknown>;
  }[] = [
    {
      name: "unknown campaign is 404 campaign",
      campaign: "camp_nope",
      body: { customer: { source_id: "x" } },
      status: 404,
      expected: {
        key: "not_found",
        message: "Resource not found",
        details: "Cannot find campaign with id camp_nope",
        resource_id: "camp_nope",
        resource_type: "campaign",
      },
    },
    {
      name: "another project's campaign is 404, never 403",
      campaign: "camp_other_loyalty",
      body: { customer: { source_id: "x" } },
      status: 404,
      expected: { key: "not_found", resource_type: "campaign", resource_id: "camp_other_loyalty" },
    },
    {
      name: "a campaign that is not a loyalty program is 400 invalid_campaign_type",
      campaign: "camp_demo_discounts",
      body: { customer: { source_id: "x" } },
      status: 400,
      expected: {
        key: "invalid_campaign_type",
        message: "Invalid campaign type",
        details:
          "Campaign 'camp_demo_discounts' is a DISCOUNT_COUPONS campaign; only a LOYALTY_PROGRAM campaign has members",
        resource_id: "camp_demo_discounts",
        resource_type: "campaign",
      },
    },
    {
      name: "unknown customer id is 404 customer",
      body: { customer: { id: "cust_nope" } },
      status: 404,
      expected: {
        key: "not_found",
        details: "Cannot find customer with id cust_nope",
        resource_id: "cust_nope",
        resource_type: "customer",
      },
    },
    {
      name: "unknown card code is 404 voucher naming the code",
      body: { customer: { source_id: "x" }, voucher: "NO-SUCH-CODE" },
      status: 404,
      expected: {
        key: "not_found",
        details: "Cannot find voucher with id NO-SUCH-CODE",
        resource_id: "NO-SUCH-CODE",
        resource_type: "voucher",
      },
    },
    {
      name: "a code of another campaign is 404 voucher",
      body: { customer: { source_id: "x" }, voucher: "SAVE10-K7QM" },
      status: 404,
      expected: { key: "not_found", resource_type: "voucher", resource_id: "SAVE10-K7QM" },
    },
    {
      name: "a published card is 400 voucher_already_published",
      body: { customer: { source_id: "x" }, voucher: "DEMO-HELD-5678" },
      status: 400,
      expected: {
        key: "voucher_already_published",
        message: "Voucher already published",
        details: "Voucher 'v_u7s68vOn0U6myGz6hTjG64T4' has already been published",
      },
    },
    // The three validity keys of documentation/api-reference/errors.mdx (voucher_disabled: "active: false";
    // voucher_expired: "after expiration date"; voucher_not_active: "before start date"), issue 15.
    {
      name: "a switched-off card is 400 voucher_disabled",
      body: { customer: { source_id: "x" }, voucher: "DEMO-NACT-2222" },
      status: 400,
      expected: {
        key: "voucher_disabled",
        message: "Voucher disabled",
        details: "Voucher 'v_OOf7vz01sp6BjMKXAVSJ8FxP' (DEMO-NACT-2222) has been disabled",
      },
    },
    {
      name: "a card before its start_date is 400 voucher_not_active",
      body: { customer: { source_id: "x" }, voucher: "DEMO-LATE-2727" },
      status: 400,
      expected: {
        key: "voucher_not_active",
        message: "Voucher not active",
        details:
          "Voucher 'v_Tip7E39uS5PavecX0d48Lwjo' (DEMO-LATE-2727) is not active yet; it starts at 2727-01-01T00:00:00.000Z",
      },
    },
    {
      name: "a card after its expiration_date is 400 voucher_expired",
      body: { customer: { source_id: "x" }, voucher: "DEMO-EXPD-2525" },
      status: 400,
      expected: {
        key: "voucher_expired",
        message: "Voucher expired",
        details:
          "Voucher 'v_fqGSCFKw0WIGJiWTwoI4Wdr0' (DEMO-EXPD-2525) has already expired; it expired at 2025-12-31T23:59:59.999Z",
      },
    },
    {
      name: "a customer who joined a join-once program is 400 voucher_cannot_be_published (by id)",
      body: { customer: { id: "cust_demo_alice" } },
      status: 400,
      expected: {
        key: "voucher_cannot_be_published",
        message: "Voucher cannot be published",
        details: "Customer already joined program",
      },
    },
    {
      name: "a customer who joined a join-once program is refused (by source_id, with a fresh code)",
      body: { customer: { source_id: "bob@example.com", name: "Changed" }, voucher: FIRST_OPEN.code },
      status: 400,
      expected: {
        key: "voucher_cannot_be_published",
        details: "Customer already joined program",
      },
    },
    {
      name: "a publication source_id used before is 400 duplicate_source_id",
      body: { customer: { source_id: "new-dup" }, source_id: "crm-signup-0001" },
      status: 400,
      expected: {
        key: "duplicate_source_id",
        message: "Duplicate source_id",
        details: "Publication with source_id: 'crm-signup-0001' already exists",
      },
    },
    {
      name: "a missing customer is 400 invalid_payload",
      body: { voucher: FIRST_OPEN.code },
      status: 400,
      expected: {
        key: "invalid_payload",
        message: "Invalid payload",
        details: "Property .customer is required",
      },
    },
    {
      name: "a customer of the wrong type is 400",
      body: { customer: 42 },
      status: 400,
      expected: { key: "invalid_payload", details: "Property .customer should be object" },
    },
    {
      // A non-empty string stands for an id or a source_id; an empty one stands for nothing and is refused as
      // the string it is, not as a customer with an empty source_id.
      name: "an empty string as customer is 400, as a customer of the wrong type",
      body: { customer: "" },
      status: 400,
      expected: { key: "invalid_payload", details: "Property .customer should be object" },
    },
    {
      name: "a customer with neither id nor source_id is 400",
      body: { customer: { name: "Nobody" } },
      status: 400,
      expected: {
        key: "invalid_payload",
        details: "Property .customer should have property id or source_id",
      },
    },
    {
      name: "a voucher code of the wrong type is 400",
      body: { customer: { source_id: "x" }, voucher: 12 },
      status: 400,
      expected: { key: "invalid_payload", details: "Property .voucher should be string" },
    },
    {
      name: "metadata that is not an object is 400",
      body: { customer: { source_id: "x" }, metadata: [1, 2] },
      status: 400,
      expected: { key: "invalid_payload", details: "Property .metadata should be object" },
    },
    {
      name: "a birthdate not in YYYY-MM-DD is 400",
      body: { customer: { source_id: "x", birthdate: "12/04/1990" } },
      status: 400,
      expected: {
        key: "invalid_payload",
        details: 'Property .customer.birthdate should match format "date"',
      },
    },
    {
      name: "a body that is not an object is 400",
      body: [{ customer: { source_id: "x" } }],
      status: 400,
      expected: { key: "invalid_payload", details: "Request body should be object" },
    },
    {
      name: "no credentials is 401",
      body: { customer: { source_id: "x" } },
      headers: {},
      status: 401,
      expected: { key: "unauthorized", message: "Unauthorized" },
    },
    {
      name: "a key without the loyalties permission is 403",
      body: { customer: { source_id: "x" } },
      headers: { "X-App-Id": "demo-readonly-app-id", "X-App-Token": "demo-readonly-app-token" },
      status: 403,
      expected: { key: "forbidden" },
    },
  ];

  for (const row of rows) {
    it(`${row.name}`, async () => {
      const world = buildWorld();
      const before = storeSnapshot(world.demo);
      const res = await join(world, row.campaign ?? "camp_demo_loyalty", row.body, row.headers ?? DEMO_KEYS);
      const { details, ...rest } = row.expected;
      expectError(res, row.status, {
        ...rest,
        ...(details !== undefined && { details: details as string | RegExp }),
      });
      expect(storeSnapshot(world.demo)).toBe(before);
      expect(storeSnapshot(world.other)).toBe(storeSnapshot(buildWorld().other));
    });
  }

  it("a second card for the same new customer is refused once they joined", async () => {
    const world = buildWorld();
    expect((await join(world, "camp_demo_loyalty", { customer: { source_id: "twice" } })).status).toBe(200);
    const before = storeSnapshot(world.demo);
    const again = await join(world, "camp_demo_loyalty", { customer: { source_id: "twice" } });
    expectError(again, 400, {
      key: "voucher_cannot_be_published",
      details: "Customer already joined program",
    });
    expect(storeSnapshot(world.demo)).toBe(before);
  });

  it("a card published once and held by nobody is 400 voucher_already_published, as a held card is", async () => {
    const document = tinyLoyaltyDocument({ codes: ["P-1", "P-2"] });
    const [published] = document.vouchers as { code: string; publish?: unknown }[];
    if (!published) throw new Error("tinyLoyaltyDocument made no card");
    published.publish = { object: "list", count: 1, url: "/v1/vouchers/P-1/publications?page=1&limit=10" };
    const world = worldWith(document);
    const before = storeSnapshot(world.project);
    const res = await send(world.app, {
      method: "POST",
      path: "/v1/loyalties/camp_tiny/members",
      headers: TINY_KEYS,
      body: { customer: { source_id: "late" }, voucher: "P-1" },
    });
    expectError(res, 400, {
      key: "voucher_already_published",
      message: "Voucher already published",
      details: "Voucher 'v_tiny000000' has already been published",
    });
    expect(storeSnapshot(world.project)).toBe(before);
  });

  it("a program without join_once lets a customer hold several cards", async () => {
    const world = worldWith(tinyLoyaltyDocument({ codes: ["M-1", "M-2"], joinOnce: false }));
    for (const code of ["M-1", "M-2"]) {
      const res = await send(world.app, {
        method: "POST",
        path: "/v1/loyalties/camp_tiny/members",
        headers: TINY_KEYS,
        body: { customer: { source_id: "collector" } },
      });
      expect(res.body.code).toBe(code);
    }
    const collector = world.project.customers.findBySourceId("collector");
    expect(world.project.vouchers.heldBy(collector?.id as string)).toHaveLength(2);
  });

  it("a body in another content type is 415 and changes nothing", async () => {
    const world = buildWorld();
    const before = storeSnapshot(world.demo);
    const res = await send(world.app, {
      method: "POST",
      path: "/v1/loyalties/camp_demo_loyalty/members",
      headers: { ...DEMO_KEYS, "Content-Type": "text/plain" },
      body: "customer=x",
    });
    expectError(res, 415, { key: "unsupported_media_type" });
    expect(storeSnapshot(world.demo)).toBe(before);
  });

  it("the other project's keys cannot reach demo's campaign, and its own campaign works", async () => {
    const world = buildWorld();
    expectError(await join(world, "camp_demo_loyalty", { customer: { source_id: "z" } }, OTHER_KEYS), 404, {
      resource_type: "campaign",
    });
    const own = await join(world, "camp_other_loyalty", { customer: { source_id: "z" } }, OTHER_KEYS);
    expect(own.status).toBe(200);
    expect(own.body.code).toMatch(/^OTHER-/);
    expect(world.demo.customers.findBySourceId("z")).toBeUndefined();
  });
});
