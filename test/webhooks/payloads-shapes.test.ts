import request from "supertest";
import { describe, expect, it } from "vitest";
import type { ProjectDocument } from "../../src/domain/projects/project-document.js";
import { control } from "../helpers/control.js";
import { expectNotifications, only, runRow } from "../helpers/notifications.js";
import { useReceivers } from "../helpers/webhooks.js";
import { buildWorld, DEMO_KEYS, defaultDocuments, type World } from "../helpers/world.js";

/**
 * The shapes the payloads share, each field exact: a campaign, a publication's customer, a customer's loyalty,
 * a referrer named by id. A campaign's shape is made once per stored version and kept (simple.ts), and the
 * fixtures' records are shared, frozen, by every world in a test process: so these run on a world whose demo
 * project is a fresh copy of its document, whose records no earlier test has shaped.
 */

const receiver = useReceivers();

const ALICE_CARD = "v_5AiF5A6ezrYeJTzejQcWIDr2";
const REF_ALICE = "v_kOGTdcebVI7WeRzeBvVnXIvr";

/** A world whose demo project is built from a fresh copy of its document, changed by `change`. */
function freshWorld(change: (document: ProjectDocument) => void = () => undefined): World {
  const world = buildWorld();
  const document = structuredClone(defaultDocuments().find((d) => d.project.id === "demo"));
  if (!document) throw new Error("no demo fixtures");
  change(document);
  world.registry.replace(document);
  return { ...world, demo: world.registry.get("demo") };
}

const join = (world: World, campaignId: string, customer: unknown) =>
  runRow(world, world.demo, "addMember", { campaignId }, { customer });

const CATEGORY = {
  id: "cat_demo_loyalty",
  name: "Loyalty",
  hierarchy: 1,
  created_at: "2025-11-01T12:00:00.000Z",
  object: "category",
};

describe("a campaign, as every notification about it carries it", () => {
  it("a code pattern given: length counts its #s; the redemption is none", () => {
    const world = freshWorld();
    const run = join(world, "camp_demo_loyalty", { source_id: "shape@example.com" });
    const notifications = expectNotifications(run, [
      "customer.created",
      "publication.succeeded",
      "customer.publication.succeeded",
      "voucher.published",
    ]);
    expect(only(notifications, "voucher.published").data.campaign).toEqual({
      id: "camp_demo_loyalty",
      name: "Demo Loyalty Program",
      campaign_type: "LOYALTY_PROGRAM",
      type: "STATIC",
      is_referral_code: false,
      voucher: {
        type: "LOYALTY_CARD",
        loyalty_card: { points: 0 },
        redemption: { quantity: null, redeemed_quantity: 0 },
        code_config: {
          length: 8,
          charset: "ABCDEFGHJKLMNPQRSTUVWXYZ23456789",
          prefix: "",
          postfix: "",
          pattern: "DEMO-####-####",
        },
      },
      auto_join: false,
      join_once: true,
      active: true,
      category_id: "cat_demo_loyalty",
      category: "Loyalty",
      categories: [CATEGORY],
      metadata: { region: "EU" },
      description:
        "The demo loyalty program: 1,000 cards ready to be handed out, a few held by the demo customers.",
      created_at: "2025-11-03T09:00:00.000Z",
      object: "campaign",
    });
  });

  it("a length given and no pattern: the pattern is that many #s", () => {
    const world = freshWorld();
    const run = join(world, "camp_demo_ondemand", { source_id: "shape@example.com" });
    const campaign = only(run.notifications, "voucher.published").data.campaign as Record<string, unknown>;
    expect((campaign.voucher as Record<string, unknown>).code_config).toEqual({
      length: 10,
      charset: "0123456789",
      prefix: "OD-",
      postfix: "",
      pattern: "##########",
    });
  });
});

describe("a publication's customer", () => {
  it("is the record's fields present, its address among them, and null summary, loyalty and referrals", () => {
    const world = freshWorld();
    const alice = join(world, "camp_demo_ondemand", { id: "cust_demo_alice" });
    const newcomer = join(world, "camp_demo_ondemand", { source_id: "new@example.com" });
    const customerOf = (run: typeof alice) =>
      (only(run.notifications, "publication.succeeded").data.publication as Record<string, unknown>).customer;
    expect(customerOf(alice)).toEqual({
      id: "cust_demo_alice",
      source_id: "alice@example.com",
      name: "Alice Nowak",
      email: "alice@example.com",
      address: { line_1: "ul. Marszalkowska 10", city: "Warsaw", postal_code: "00-590", country: "PL" },
      metadata: { favourite_store: "Warsaw", visits: 14, newsletter: true },
      summary: null,
      loyalty: null,
      referrals: null,
      object: "customer",
    });
    expect(customerOf(newcomer)).toEqual({
      id: newcomer.response.holder_id,
      source_id: "new@example.com",
      metadata: {},
      summary: null,
      loyalty: null,
      referrals: null,
      object: "customer",
    });
  });
});

describe("a customer's loyalty in customer.updated", () => {
  it("counts the conversions of their referral codes only, not the redemptions of their other cards", () => {
    const world = freshWorld((document) => {
      for (const voucher of document.vouchers ?? []) {
        const quantity = { [ALICE_CARD]: 3, [REF_ALICE]: 2 }[voucher.id];
        if (quantity !== undefined)
          voucher.redemption = {
            quantity: null,
            redeemed_quantity: quantity,
            redeemed_points: 0,
            object: "list",
            url: `/v1/vouchers/${voucher.code}/redemptions?page=1&limit=10`,
          };
      }
    });
    const run = join(world, "camp_demo_ondemand", { id: "cust_demo_alice", name: "Alice N." });
    expect(
      (only(run.notifications, "customer.updated").data.customer as { loyalty: unknown }).loyalty,
    ).toEqual({
      points: 1250,
      referred_customers: 2,
      campaigns: {
        "Demo Loyalty Program": { points: 1250, referred_customers: 0 },
        "Demo Referral Program": { referred_customers: 2 },
      },
    });
  });
});

describe("a referral code no one holds", () => {
  it("rewards the customer referral.referrer_id names, by id or by source_id", () => {
    for (const referrer of ["cust_demo_alice", "alice@example.com"]) {
      const world = freshWorld((document) => {
        const held = document.vouchers?.find((v) => v.id === REF_ALICE);
        if (!held) throw new Error("no REF-ALICE");
        const { publish: _publish, ...open } = held;
        document.vouchers?.push({
          ...open,
          id: "v_refopen0000000000000001",
          code: "REF-OPEN",
          holder_id: null,
        });
      });
      const run = runRow(
        world,
        world.demo,
        "trackEvent",
        {},
        {
          event: "referral_converted",
          customer: { source_id: "friend@example.com" },
          referral: { code: "REF-OPEN", referrer_id: referrer },
        },
      );
      const notifications = expectNotifications(run, [
        "customer.created",
        "customer.custom_event",
        "customer.rewarded",
      ]);
      expect(only(notifications, "customer.rewarded").entityId).toBe("cust_demo_alice");
      const custom = only(notifications, "customer.custom_event").data as {
        referral: { referrer: { id: string } };
      };
      expect(custom.referral.referrer.id).toBe("cust_demo_alice");
    }
  });
});

describe("a notification several endpoints take", () => {
  it("carries the same data to each, built once", async () => {
    const world = buildWorld();
    const [a, b] = [await receiver(), await receiver()];
    for (const hook of [a, b])
      expect(
        (
          await control(world.app, {
            method: "POST",
            path: "/__mock/projects/demo/webhooks",
            body: { url: hook.url, events: ["voucher.published"] },
          })
        ).status,
      ).toBe(201);
    const res = await request(world.app)
      .post("/v1/loyalties/camp_demo_loyalty/members")
      .set(DEMO_KEYS)
      .send({ customer: { source_id: "twice@example.com" } });
    expect(res.status).toBe(200);
    await world.registry.dispatcher.settled();
    const [got] = a.received;
    if (!got) throw new Error("nothing received");
    expect(a.received).toHaveLength(1);
    expect(b.received).toHaveLength(1);
    expect((got.body.data as { voucher: { id: string } }).voucher.id).toBe(res.body.id);
    expect(b.received[0]?.body.data).toEqual(got.body.data);
  });
});
