import { describe, expect, it } from "vitest";
import { expectNotifications, only, type RowRun, refusedRow, runRow } from "../helpers/notifications.js";
import { buildWorld, storeSnapshot, type World } from "../helpers/world.js";

const NOW = "2026-11-20T10:00:00.000Z";
const FIRST_OPEN = { id: "v_185xlMMyDxJe7ilc7DJu86Ct", code: "DEMO-V8TK-XZ5F" };
const PUBLICATION = ["publication.succeeded", "customer.publication.succeeded", "voucher.published"];

function join(world: World, body: unknown, campaignId = "camp_demo_loyalty"): RowRun {
  return runRow(world, world.demo, "addMember", { campaignId }, body);
}

/** What every publication notification says, checked against the answer and the store. */
function expectPublication(world: World, run: RowRun, notifications: RowRun["notifications"]) {
  const voucherId = run.response.id as string;
  const holder = run.response.holder_id as string;
  const [publication] = world.demo.publications.list().filter((p) => p.voucher_id === voucherId);
  expect(publication).toBeDefined();
  const customer = world.demo.customers.get(holder);
  const simpleCustomer = expect.objectContaining({ id: holder, object: "customer" });
  const campaign = expect.objectContaining({ id: run.response.campaign_id, name: run.response.campaign });
  const voucher = expect.objectContaining({
    id: voucherId,
    code: run.response.code,
    holder_id: holder,
    loyalty_card: run.response.loyalty_card,
    updated_at: NOW,
  });

  const succeeded = only(notifications, "publication.succeeded");
  expect(succeeded.entityId).toBe(publication?.id);
  expect(succeeded.data).toEqual({
    customer: simpleCustomer,
    campaign,
    voucher,
    user: null,
    publication: expect.objectContaining({
      id: publication?.id,
      object: "publication",
      created_at: NOW,
      customer_id: holder,
      tracking_id: customer.source_id,
      channel: publication?.channel,
      source_id: publication?.source_id,
      metadata: publication?.metadata,
      result: "SUCCESS",
      vouchers_id: [voucherId],
      customer: expect.objectContaining({ id: holder, summary: null, loyalty: null, referrals: null }),
    }),
  });

  const customerActivity = only(notifications, "customer.publication.succeeded");
  expect(customerActivity.entityId).toBe(holder);
  expect(customerActivity.data).toEqual({ customer: simpleCustomer, campaign, voucher, publication: null });

  const published = only(notifications, "voucher.published");
  expect(published.entityId).toBe(voucherId);
  expect(published.data).toEqual({ ...succeeded.data, user: undefined, created_at: NOW });
  expect(published.data).not.toHaveProperty("user");
}

describe("addMember notifications", () => {
  it("a new customer: customer.created, then the publication's three, in order", () => {
    const world = buildWorld();
    const run = join(world, {
      customer: {
        source_id: "jane@example.com",
        name: "Jane Doe",
        email: "jane@example.com",
        metadata: { a: 1 },
      },
      metadata: { origin: "signup" },
      channel: "Website",
      source_id: "crm-4711",
    });
    const notifications = expectNotifications(run, ["customer.created", ...PUBLICATION]);
    expect(run.response.id).toBe(FIRST_OPEN.id);
    const holder = run.response.holder_id as string;

    const created = only(notifications, "customer.created");
    expect(created.entityId).toBe(holder);
    expect(created.data).toEqual({
      customer: {
        id: holder,
        source_id: "jane@example.com",
        name: "Jane Doe",
        email: "jane@example.com",
        metadata: { a: 1 },
        summary: expect.objectContaining({ orders: expect.objectContaining({ total_count: 0 }) }),
        loyalty: { points: 0, referred_customers: 0, campaigns: {} },
        referrals: { total: 0, campaigns: [] },
        system_metadata: {},
        created_at: NOW,
        object: "customer",
      },
    });
    expectPublication(world, run, notifications);
    const succeeded = only(notifications, "publication.succeeded").data as { publication: object };
    expect(succeeded.publication).toMatchObject({
      channel: "Website",
      source_id: "crm-4711",
      metadata: { origin: "signup" },
    });
  });

  it("an existing customer the request changes: customer.updated with their loyalty before the card", () => {
    const world = buildWorld();
    const run = join(world, { customer: { id: "cust_demo_erin", name: "Erin W." } }, "camp_demo_ondemand");
    const notifications = expectNotifications(run, ["customer.updated", ...PUBLICATION]);
    const updated = only(notifications, "customer.updated");
    expect(updated.entityId).toBe("cust_demo_erin");
    expect(updated.data.customer).toMatchObject({
      id: "cust_demo_erin",
      name: "Erin W.",
      source_id: "erin@example.com",
      updated_at: NOW,
      created_at: "2026-04-01T12:00:00.000Z",
      loyalty: { points: 0, referred_customers: 0, campaigns: {} },
    });
    expect(world.demo.customers.get("cust_demo_erin").name).toBe("Erin W.");
  });

  it("a customer who holds cards: loyalty sums their cards' balances and referral conversions", () => {
    const world = buildWorld();
    const run = join(
      world,
      { customer: { id: "cust_demo_alice", metadata: { visits: 15 } } },
      "camp_demo_ondemand",
    );
    const notifications = expectNotifications(run, ["customer.updated", ...PUBLICATION]);
    const alice = only(notifications, "customer.updated").data.customer as Record<string, unknown>;
    const referral = world.demo.vouchers.get("v_kOGTdcebVI7WeRzeBvVnXIvr");
    expect(alice.loyalty).toEqual({
      points: 1250,
      referred_customers: referral.redemption.redeemed_quantity,
      campaigns: {
        "Demo Loyalty Program": { points: 1250, referred_customers: 0 },
        "Demo Referral Program": { referred_customers: referral.redemption.redeemed_quantity },
      },
    });
    expect(alice.metadata).toEqual({ favourite_store: "Warsaw", visits: 15, newsletter: true });
    expect(alice.address).toEqual(world.demo.customers.get("cust_demo_alice").address);
    expectPublication(world, run, notifications);
  });

  it("an existing customer the request leaves as it was: no customer notification", () => {
    const world = buildWorld();
    const run = join(
      world,
      { customer: { source_id: "erin@example.com", name: "Erin Walsh", email: "erin@example.com" } },
      "camp_demo_ondemand",
    );
    const notifications = expectNotifications(run, PUBLICATION);
    expectPublication(world, run, notifications);
    expect(world.demo.customers.get("cust_demo_erin").updated_at).toBeNull();
  });

  it("a card made on demand is published like any other", () => {
    const world = buildWorld();
    for (const customer of ["od-1", "od-2"]) join(world, { customer }, "camp_demo_ondemand");
    const run = join(world, { customer: "od-3" }, "camp_demo_ondemand");
    const notifications = expectNotifications(run, ["customer.created", ...PUBLICATION]);
    expect(run.response.code).toMatch(/^OD-\d{10}$/);
    const published = only(notifications, "voucher.published").data as { campaign: object };
    expect(published.campaign).toMatchObject({
      type: "AUTO_UPDATE",
      voucher: { code_config: { length: 10, prefix: "OD-", pattern: "##########", charset: "0123456789" } },
    });
  });

  it("a refused request notifies nothing and changes nothing", () => {
    const world = buildWorld();
    const before = storeSnapshot(world.demo);
    for (const [campaignId, body, key] of [
      [
        "camp_demo_loyalty",
        { customer: { id: "cust_demo_alice", name: "A" } },
        "voucher_cannot_be_published",
      ],
      [
        "camp_demo_loyalty",
        { customer: { source_id: "x@example.com" }, voucher: "DEMO-HELD-3456" },
        "voucher_already_published",
      ],
      ["camp_demo_loyalty", { customer: { id: "cust_nope" } }, "not_found"],
      ["camp_demo_discounts", { customer: { source_id: "y@example.com" } }, "invalid_campaign_type"],
      ["camp_demo_loyalty", { customer: {} }, undefined],
    ] as const) {
      const { error, calls } = refusedRow(world, world.demo, "addMember", { campaignId }, body);
      if (key) expect(error).toMatchObject({ key });
      expect(calls).toEqual([]);
    }
    expect(storeSnapshot(world.demo)).toBe(before);
  });
});
