import { describe, expect, it } from "vitest";
import { campaignSchema } from "../../src/domain/campaigns/campaign.js";
import { commitCustomer, resolveCustomer } from "../../src/domain/customers/resolve-customer.js";
import { eventSchemaSchema } from "../../src/domain/events/event-schema.js";
import { metadataProblem } from "../../src/domain/events/metadata-check.js";
import { assignCard } from "../../src/domain/members/assign-card.js";
import { codeSpace, generateCode } from "../../src/domain/vouchers/code-generator.js";
import { completeVoucher, type Voucher } from "../../src/domain/vouchers/voucher.js";
import { VoucherStore } from "../../src/domain/vouchers/voucher-store.js";
import { buildWorld, tinyLoyaltyDocument, worldWith } from "../helpers/world.js";

const campaign = campaignSchema.parse({
  id: "camp_x",
  name: "X",
  campaign_type: "LOYALTY_PROGRAM",
  voucher: { type: "LOYALTY_CARD" },
  created_at: "2026-01-01T00:00:00.000Z",
});

function card(id: string, extra: Partial<Voucher> = {}): Voucher {
  return {
    ...completeVoucher(
      {
        id,
        code: id.toUpperCase(),
        campaign_id: "camp_x",
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
        is_referral_code: false,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: null,
        object: "voucher",
      },
      campaign,
      0,
    ),
    ...extra,
  };
}

describe("code generation", () => {
  const config = (extra: object) =>
    campaignSchema.parse({ ...campaign, voucher: { type: "LOYALTY_CARD", code_config: extra } }).voucher
      .code_config;

  it("follows the pattern, the charset, the prefix and the postfix", () => {
    const code = generateCode(
      config({ pattern: "LC-####", charset: "XY", prefix: "P", postfix: "S" }),
      () => false,
    );
    expect(code).toMatch(/^PLC-[XY]{4}S$/);
    expect(generateCode(config({ length: 6, charset: "0123456789", prefix: "OD-" }), () => false)).toMatch(
      /^OD-\d{6}$/,
    );
  });

  it("finds the last free code of a small space and gives up only when none is left", () => {
    const cfg = config({ pattern: "#", charset: "ABC" });
    expect(codeSpace(cfg)).toBe(3);
    expect(generateCode(cfg, (code) => code !== "C")).toBe("C");
    expect(generateCode(cfg, () => true)).toBeUndefined();
  });
});

/** The ids of a campaign's open cards, in order: every card firstOpenCard looks at when it accepts none. */
function openIds(store: VoucherStore, campaignId: string): string[] {
  const seen: string[] = [];
  store.firstOpenCard(campaignId, (open) => {
    seen.push(open.id);
    return false;
  });
  return seen;
}

describe("VoucherStore lookups", () => {
  it("yields open cards in stored order and drops them once held", () => {
    const store = new VoucherStore(
      "voucher",
      [card("v_a"), card("v_b", { active: false }), card("v_c"), card("v_d")],
      () => campaign,
    );
    expect(openIds(store, "camp_x")).toEqual(["v_a", "v_c", "v_d"]);
    store.put({ ...card("v_a"), holder_id: "cust_1" });
    store.put({ ...card("v_d"), metadata: { touched: true } });
    expect(openIds(store, "camp_x")).toEqual(["v_c", "v_d"]);
    // The first card the test accepts comes back completed; the ones before it are only looked at.
    expect(store.firstOpenCard("camp_x", (open) => open.id === "v_d")).toMatchObject({
      id: "v_d",
      campaign: "X",
      publish: { count: 0 },
    });
    expect(store.heldBy("cust_1").map((v) => v.id)).toEqual(["v_a"]);
    expect(store.heldBy("cust_1", "camp_other")).toEqual([]);
    store.delete("v_a");
    expect(store.heldBy("cust_1")).toEqual([]);
  });

  it("keeps fixture cards as given and completes them on every read", () => {
    const lean = { ...card("v_lean") } as Record<string, unknown>;
    for (const derived of [
      "campaign",
      "category",
      "category_id",
      "categories",
      "assets",
      "redemption",
      "publish",
    ])
      delete lean[derived];
    const store = new VoucherStore("voucher", [lean as Voucher], () => campaign);
    expect([...store.records()][0]).toBe(lean);
    expect(store.get("v_lean")).toMatchObject({
      campaign: "X",
      assets: { qr: { id: expect.stringMatching(/^U2FsdGVkX1/) } },
      publish: { count: 0 },
      redemption: { redeemed_quantity: 0 },
    });
    const written = store.put({ ...store.get("v_lean"), holder_id: "cust_1" });
    expect([...store.records()][0]).toBe(written);
  });

  it("a card with a publication but no holder is not open", () => {
    const published = card("v_p");
    const store = new VoucherStore(
      "voucher",
      [{ ...published, publish: { ...published.publish, count: 1 } }],
      () => campaign,
    );
    expect(openIds(store, "camp_x")).toEqual([]);
  });
});

describe("event metadata against the event schema", () => {
  const schema = eventSchemaSchema.parse({
    id: "ms_x",
    name: "x",
    schema: {
      properties: {
        day: { type: "date", optional: true },
        at: { type: "datetime", optional: true },
        tags: { type: "string", array: true, optional: true },
        count: { type: "number", optional: false },
        info: { type: "object", optional: true },
        infos: { type: "object", array: true, optional: true },
      },
    },
    created_at: "2026-01-01T00:00:00.000Z",
  });

  it.each([
    [{ count: 1 }, undefined],
    [{ count: 1, day: "2026-11-20", at: "2026-11-20T10:00:00.000Z", tags: ["a"], info: {} }, undefined],
    [{}, "Property .metadata.count is required"],
    [{ count: null }, "Property .metadata.count is required"],
    [{ count: Number.NaN }, "Property .metadata.count should be number"],
    [{ count: 1, day: "20/11/2026" }, 'Property .metadata.day should match format "date" (YYYY-MM-DD)'],
    [{ count: 1, at: "yesterday" }, 'Property .metadata.at should match format "date-time" (ISO 8601)'],
    [{ count: 1, tags: "a" }, "Property .metadata.tags should be array"],
    [{ count: 1, tags: ["a", 2] }, "Property .metadata.tags[1] should be string"],
    [{ count: 1, info: [1] }, "Property .metadata.info should be object"],
    [{ count: 1, info: "x" }, "Property .metadata.info should be object"],
    [{ count: 1, infos: [{}, null] }, "Property .metadata.infos[1] should be object"],
    [{ count: 1, tags: [2, "a"] }, "Property .metadata.tags[0] should be string"],
    [{ count: Number.POSITIVE_INFINITY }, "Property .metadata.count should be number"],
  ])("%j -> %s", (metadata, problem) => {
    expect(metadataProblem(schema, metadata)).toBe(problem);
  });
});

describe("resolving a request's customer", () => {
  it("sees no change when the request repeats what the customer holds, and leaves the stored record alone", () => {
    const world = buildWorld();
    const erin = world.demo.customers.get("cust_demo_erin");
    const before = JSON.stringify(erin);
    const same = resolveCustomer(world.demo, {
      id: erin.id,
      name: erin.name,
      metadata: { ...erin.metadata },
    });
    expect(same).toEqual({ customer: erin, isNew: false, changed: false });

    const changed = resolveCustomer(world.demo, {
      id: erin.id,
      metadata: { added: 1 },
      address: { city: "Gdańsk" },
    });
    expect(changed.changed).toBe(true);
    expect(changed.customer.metadata).toEqual({ ...erin.metadata, added: 1 });
    expect(changed.customer.address).toMatchObject({ city: "Gdańsk" });
    expect(changed.customer.updated_at).toBe("2026-11-20T10:00:00.000Z");
    // Nothing is written until the operation commits: the stored record and its objects are as they were.
    expect(JSON.stringify(world.demo.customers.get(erin.id))).toBe(before);
  });
});

describe("a card made on demand", () => {
  /**
   * The members answer's contract only knows loyalty cards, but the fixture format lets a loyalty program hand
   * out another kind: a card made for one then carries that kind's parts, and no loyalty_card.
   */
  it("has a loyalty_card only when the program's cards are loyalty cards", () => {
    const document = tinyLoyaltyDocument({
      codes: [],
      type: "AUTO_UPDATE",
      codeConfig: { pattern: "G-####" },
    });
    const program = document.campaigns?.[0] as { voucher: object };
    program.voucher = { type: "GIFT_VOUCHER", code_config: { pattern: "G-####" } };
    const world = worldWith(document);
    const { voucher } = assignCard(
      world.project,
      "camp_tiny",
      { customer: { source_id: "gift" } },
      world.registry.defaults.caps,
    );
    expect(voucher).toMatchObject({
      campaign_id: "camp_tiny",
      type: "GIFT_VOUCHER",
      gift: null,
      loyalty_card: null,
    });
    expect(voucher.code).toMatch(/^G-[A-Z0-9]{4}$/);
    expect(world.project.vouchers.get(voucher.id).loyalty_card).toBeNull();
  });
});

describe("a customer's fields as a request gives them", () => {
  it("an address is merged into the one held; metadata or address given as null empties them", () => {
    const world = buildWorld();
    const id = "cust_demo_erin";
    commitCustomer(
      world.demo,
      resolveCustomer(world.demo, { id, address: { city: "Gdańsk", country: "PL" }, metadata: { a: 1 } }),
    );
    const moved = resolveCustomer(world.demo, { id, address: { city: "Sopot" } });
    expect(moved.customer.address).toEqual({ city: "Sopot", country: "PL" });
    const emptied = resolveCustomer(world.demo, { id, address: null, metadata: null });
    expect({ address: emptied.customer.address, metadata: emptied.customer.metadata }).toEqual({
      address: null,
      metadata: {},
    });
    expect(emptied.changed).toBe(true);
  });

  it("a customer the request leaves as it is is not written again", () => {
    const world = buildWorld();
    const erin = world.demo.customers.get("cust_demo_erin");
    const written: string[] = [];
    world.demo.watch((collection, key) => written.push(`${collection} ${key}`));
    expect(commitCustomer(world.demo, resolveCustomer(world.demo, { id: erin.id, name: erin.name }))).toBe(
      erin,
    );
    expect(written).toEqual([]);
    commitCustomer(world.demo, resolveCustomer(world.demo, { id: erin.id, name: "Erin W." }));
    expect(written).toEqual(["customers cust_demo_erin"]);
  });
});

describe("a campaign's join_once", () => {
  const raw = {
    id: "camp_x",
    name: "X",
    campaign_type: "LOYALTY_PROGRAM",
    voucher: { type: "LOYALTY_CARD" },
    created_at: "2026-01-01T00:00:00.000Z",
  };
  const parse = (extra: object) => campaignSchema.parse({ ...raw, ...extra }).join_once;

  it("is on by default for a loyalty program only, and as given otherwise", () => {
    expect(parse({ campaign_type: "LOYALTY_PROGRAM" })).toBe(true);
    expect(parse({ campaign_type: "DISCOUNT_COUPONS", voucher: { type: "DISCOUNT_VOUCHER" } })).toBe(false);
    expect(parse({ campaign_type: "LOYALTY_PROGRAM", join_once: false })).toBe(false);
    expect(
      parse({ campaign_type: "GIFT_VOUCHERS", voucher: { type: "GIFT_VOUCHER" }, join_once: true }),
    ).toBe(true);
  });

  it("refuses a code pattern with no # to fill", () => {
    const result = campaignSchema.safeParse({
      ...raw,
      voucher: { type: "LOYALTY_CARD", code_config: { pattern: "FIXED-CODE" } },
    });
    expect(result.error?.issues).toEqual([
      {
        code: "custom",
        path: ["voucher", "code_config", "pattern"],
        message: "pattern must hold at least one # (a random character)",
      },
    ]);
  });
});
