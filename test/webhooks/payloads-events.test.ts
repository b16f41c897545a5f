import { describe, expect, it } from "vitest";
import { expectNotifications, only, type RowRun, refusedRow, runRow } from "../helpers/notifications.js";
import { buildWorld, storeSnapshot, type World } from "../helpers/world.js";

const NOW = "2026-11-20T10:00:00.000Z";
const REF_ALICE = "v_kOGTdcebVI7WeRzeBvVnXIvr";

function track(world: World, body: unknown): RowRun {
  return runRow(world, world.demo, "trackEvent", {}, body);
}

describe("trackEvent notifications", () => {
  it("a new customer with no card: customer.created, the custom event, no payment", () => {
    const world = buildWorld();
    const run = track(world, {
      event: "user_subscribed",
      customer: { source_id: "zed@example.com", name: "Zed" },
      metadata: { plan: "free" },
    });
    const notifications = expectNotifications(run, ["customer.created", "customer.custom_event"]);
    const id = (run.response.customer as { id: string }).id;
    expect(notifications[0]?.entityId).toBe(id);
    expect(notifications[0]?.data.customer).toMatchObject({ id, name: "Zed", source_id: "zed@example.com" });
    expect(world.demo.customers.get(id).name).toBe("Zed");
  });

  it("an event no rule counts, naming a held card: customer.updated, the custom event with its loyalty card", () => {
    const world = buildWorld();
    const run = track(world, {
      event: "cart_abandoned",
      customer: { source_id: "bob@example.com", phone: "+49 30 1234" },
      loyalty: { code: "DEMO-HELD-3456" },
      metadata: { cart_value: 12.5 },
    });
    const notifications = expectNotifications(run, ["customer.updated", "customer.custom_event"]);
    expect(notifications[0]?.data.customer).toMatchObject({
      id: "cust_demo_bob",
      phone: "+49 30 1234",
      updated_at: NOW,
      loyalty: { points: 300, campaigns: { "Demo Loyalty Program": { points: 300 } } },
    });
    const custom = notifications[1]?.data as Record<string, { [k: string]: unknown }>;
    expect(custom.event?.loyalty).toEqual({ code: "DEMO-HELD-3456" });
    expect(custom.loyalty).toMatchObject({
      voucher: { code: "DEMO-HELD-3456", loyalty_card: { points: 300, balance: 300 } },
      campaign: { id: "camp_demo_loyalty" },
    });
  });

  it("a referral conversion: the referrer is rewarded after the custom event", () => {
    const world = buildWorld();
    const before = world.demo.vouchers.get(REF_ALICE).redemption.redeemed_quantity;
    const run = track(world, {
      event: "referral_converted",
      customer: { source_id: "friend@example.com" },
      referral: { code: "REF-ALICE" },
    });
    const notifications = expectNotifications(run, [
      "customer.created",
      "customer.custom_event",
      "customer.rewarded",
    ]);
    const referralCard = {
      code: "REF-ALICE",
      redemption: expect.objectContaining({ redeemed_quantity: before + 1 }),
    };
    expect(notifications[1]?.data).toMatchObject({
      event: { referral: { code: "REF-ALICE", referrer_id: "cust_demo_alice" } },
      referral: {
        referrer: { id: "cust_demo_alice", name: "Alice Nowak" },
        voucher: referralCard,
        campaign: { id: "camp_demo_referral", campaign_type: "REFERRAL_PROGRAM" },
      },
    });
    const rewarded = only(notifications, "customer.rewarded");
    expect(rewarded.entityId).toBe("cust_demo_alice");
    expect(rewarded.data).toMatchObject({
      customer: { id: "cust_demo_alice" },
      holder: { id: "cust_demo_alice" },
      voucher: referralCard,
      campaign: { id: "camp_demo_referral" },
      custom_event: { type: "referral_converted", customer: { source_id: "friend@example.com" } },
    });
    expect(world.demo.vouchers.get(REF_ALICE).redemption.redeemed_quantity).toBe(before + 1);
  });

  it("a refused event notifies nothing and changes nothing", () => {
    const world = buildWorld();
    const before = storeSnapshot(world.demo);
    for (const [body, key] of [
      [{ event: "nope", customer: { source_id: "n@example.com" } }, "event_not_defined"],
      [
        { event: "user_subscribed", customer: { source_id: "alice@example.com" } },
        "metadata_validation_failed",
      ],
      [
        {
          event: "loyalty_bonus",
          customer: { source_id: "bob@example.com" },
          loyalty: { code: "DEMO-HELD-2345" },
        },
        "loyalty_card_not_assigned",
      ],
      [
        { event: "loyalty_bonus", customer: { source_id: "x" }, referral: { code: "SAVE10-K7QM" } },
        "invalid_referral_code",
      ],
      [{ event: "loyalty_bonus", customer: { id: "cust_nope" } }, "not_found"],
    ] as const) {
      const { error, calls } = refusedRow(world, world.demo, "trackEvent", {}, body);
      expect(error).toMatchObject({ key });
      expect(calls).toEqual([]);
    }
    expect(storeSnapshot(world.demo)).toBe(before);
  });

  it("a project at its event cap refuses (409) without notifying", () => {
    const world = buildWorld({ defaults: { caps: { eventsPerProject: world0Events() } } });
    const before = storeSnapshot(world.demo);
    const body = {
      event: "user_subscribed",
      customer: { source_id: "new@example.com" },
      metadata: { plan: "x" },
    };
    const { error, calls } = refusedRow(world, world.demo, "trackEvent", {}, body);
    expect(error).toMatchObject({ key: "limit_exceeded" });
    expect(calls).toEqual([]);
    expect(storeSnapshot(world.demo)).toBe(before);
  });
});

/** How many events the default dataset's demo project starts with: a cap of that many allows no more. */
function world0Events(): number {
  return buildWorld().demo.events.size;
}
