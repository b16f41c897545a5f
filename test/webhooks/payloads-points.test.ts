import { describe, expect, it } from "vitest";
import { earningRuleSchema } from "../../src/domain/earning-rules/earning-rule.js";
import { voucherResponse } from "../../src/domain/vouchers/voucher-view.js";
import { expectNotifications, only, type RowRun, runRow } from "../helpers/notifications.js";
import { buildWorld, type World } from "../helpers/world.js";

const NOW = "2026-11-20T10:00:00.000Z";
const ALICE_CARD = "v_5AiF5A6ezrYeJTzejQcWIDr2";
const PAYMENT = [
  "voucher.loyalty_card.transaction.created",
  "voucher.loyalty_card.points_added",
  "customer.voucher.loyalty_card.points_added",
  "customer.rewarded.loyalty_points",
];

function track(world: World, body: unknown): RowRun {
  return runRow(world, world.demo, "trackEvent", {}, body);
}

function addRule(world: World, id: string, campaignId: string, points: number) {
  world.demo.earningRules.put(
    earningRuleSchema.parse({
      id,
      name: `${points} more`,
      campaign_id: campaignId,
      event: "user_subscribed",
      loyalty: { type: "FIXED", points },
      created_at: "2026-01-01T00:00:00.000Z",
    }),
  );
}

/** The four notifications of one payment, checked against the stored card, event and rule. */
function expectPayment(
  world: World,
  group: RowRun["notifications"],
  expected: { card: string; rule: string; points: number; total: number; balance: number },
) {
  const [transactionCreated, pointsAdded, customerPointsAdded, rewarded] = group;
  const [event] = world.demo.events.list().slice(-1);
  const balance = {
    type: "loyalty_card",
    total: expected.total,
    object: "balance",
    points: expected.points,
    balance: expected.balance,
    operation_type: "AUTOMATIC",
    related_object: { id: expected.card, type: "voucher" },
  };
  const tx = transactionCreated?.data.transaction as Record<string, unknown>;
  expect(tx).toMatchObject({
    id: expect.stringMatching(/^vtx_[0-9a-f]{18}$/),
    voucher_id: expected.card,
    type: "POINTS_ACCRUAL",
    source: "API",
    created_at: NOW,
    details: {
      balance,
      event: { id: event?.id, type: "customer.custom_event" },
      earning_rule: { id: expected.rule },
      custom_event: { id: event?.id, type: "user_subscribed" },
      event_schema: { id: "ms_demo_user_subscribed", name: "user_subscribed" },
    },
  });
  expect(transactionCreated?.entityId).toBe(expected.card);
  expect(transactionCreated?.data).toMatchObject({
    balance,
    earning_rule: { id: expected.rule },
    custom_event: { id: event?.id, type: "user_subscribed", metadata: event?.metadata },
    event: { id: event?.id, type: "customer.custom_event", entity_id: event?.customer_id },
  });
  for (const n of [pointsAdded, customerPointsAdded]) {
    expect(n?.data.transaction).toEqual(tx);
    expect(n?.data.balance).toEqual(balance);
    expect(n?.data.voucher).toMatchObject({
      id: expected.card,
      loyalty_card: { points: expected.total, balance: expected.balance },
    });
  }
  expect(pointsAdded?.entityId).toBe(expected.card);
  expect(customerPointsAdded?.entityId).toBe(event?.customer_id);
  expect(rewarded?.entityId).toBe(event?.customer_id);
  expect(rewarded?.data).toMatchObject({
    balance,
    holder: { id: event?.customer_id },
    earning_rule: {
      id: expected.rule,
      event: "custom_event",
      custom_event: { schema_id: "ms_demo_user_subscribed" },
    },
    event: { id: event?.id },
  });
}

describe("trackEvent notifications: earning-rule payments", () => {
  it("an earning rule paying one card: the custom event, then the payment's four", () => {
    const world = buildWorld();
    const body = {
      event: "user_subscribed",
      customer: { source_id: "alice@example.com" },
      metadata: { plan: "pro" },
    };
    const run = track(world, body);
    const notifications = expectNotifications(run, ["customer.custom_event", ...PAYMENT]);
    const [event] = world.demo.events.list().slice(-1);
    const custom = only(notifications, "customer.custom_event");
    expect(custom.entityId).toBe("cust_demo_alice");
    expect(custom.data).toEqual({
      event: {
        id: event?.id,
        object: "event",
        type: "user_subscribed",
        customer: run.response.customer,
        referral: {},
        loyalty: {},
        metadata: { plan: "pro" },
        created_at: NOW,
      },
      event_schema: { id: "ms_demo_user_subscribed", name: "user_subscribed" },
      customer: run.response.customer,
      referral: null,
      loyalty: null,
    });
    expectPayment(world, notifications.slice(1), {
      card: ALICE_CARD,
      rule: "lern_d0000000000000001",
      points: 100,
      total: 1550,
      balance: 1350,
    });
    const stored = world.demo.vouchers.get(ALICE_CARD);
    expect(stored.loyalty_card).toMatchObject({ points: 1550, balance: 1350 });
    // The whole card as the API answers it, without the fields it holds as null (the webhook schema refuses them).
    const answered = Object.entries(voucherResponse(stored)).filter(([, value]) => value !== null);
    const { quantity: _unlimited, ...redemption } = stored.redemption;
    expect(notifications[1]?.data.voucher).toEqual(
      JSON.parse(JSON.stringify({ ...Object.fromEntries(answered), redemption })),
    );
  });

  it("rules paying two cards: one payment group per rule, in the rules' order", () => {
    const world = buildWorld();
    const joined = runRow(
      world,
      world.demo,
      "addMember",
      { campaignId: "camp_demo_ondemand" },
      {
        customer: { id: "cust_demo_alice" },
      },
    );
    addRule(world, "lern_d0000000000000009", "camp_demo_ondemand", 40);
    const run = track(world, {
      event: "user_subscribed",
      customer: { id: "cust_demo_alice" },
      metadata: { plan: "x" },
    });
    const notifications = expectNotifications(run, ["customer.custom_event", ...PAYMENT, ...PAYMENT]);
    expectPayment(world, notifications.slice(1, 5), {
      card: ALICE_CARD,
      rule: "lern_d0000000000000001",
      points: 100,
      total: 1550,
      balance: 1350,
    });
    expectPayment(world, notifications.slice(5), {
      card: joined.response.id as string,
      rule: "lern_d0000000000000009",
      points: 40,
      total: 40,
      balance: 40,
    });
    const txIds = new Set(notifications.map((n) => (n.data.transaction as { id?: string } | undefined)?.id));
    expect(txIds.size).toBe(3); // two transactions, and undefined for the custom event
  });

  it("two rules paying the same card: the second payment sees the first", () => {
    const world = buildWorld();
    addRule(world, "lern_d0000000000000008", "camp_demo_loyalty", 50);
    const run = track(world, {
      event: "user_subscribed",
      customer: { id: "cust_demo_alice" },
      metadata: { plan: "x" },
    });
    const notifications = expectNotifications(run, ["customer.custom_event", ...PAYMENT, ...PAYMENT]);
    const first = {
      card: ALICE_CARD,
      rule: "lern_d0000000000000001",
      points: 100,
      total: 1550,
      balance: 1350,
    };
    expectPayment(world, notifications.slice(1, 5), first);
    expectPayment(world, notifications.slice(5), {
      ...first,
      rule: "lern_d0000000000000008",
      points: 50,
      total: 1600,
      balance: 1400,
    });
    expect(world.demo.vouchers.get(ALICE_CARD).loyalty_card).toMatchObject({ points: 1600, balance: 1400 });
  });
});
