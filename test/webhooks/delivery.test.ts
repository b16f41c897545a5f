import { createHmac, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import request from "supertest";
import { describe, expect, it } from "vitest";
import type { Delivery } from "../../src/domain/webhooks/outbox.js";
import { verifySignature } from "../../src/index.js";
import { control } from "../helpers/control.js";
import { notification } from "../helpers/receiver.js";
import { useReceivers, type WebhookWorld, webhookWorld } from "../helpers/webhooks.js";
import { DEMO_KEYS, type World } from "../helpers/world.js";

/**
 * Delivery over real loopback sockets: a receiver started here, an endpoint made through the control API, and
 * notifications handed to `notify` by an operation mounted with the six's own code (routes.ts), since the use
 * cases' payloads are built elsewhere. Signatures are checked with node:crypto and with the vendor's own helper.
 */

const receiver = useReceivers();
type W = WebhookWorld;
const world = webhookWorld;

async function addEndpoint(w: World, body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const res = await control(w.app, { method: "POST", path: "/__mock/projects/demo/webhooks", body });
  expect(res.status).toBe(201);
  return res.body;
}

/** An operation that notifies; resolves with its response once the deliveries it caused were attempted. */
async function operate(w: W, body: object) {
  const res = await request(w.notifier).post("/v1/test-notify").set(DEMO_KEYS).send(body);
  await w.registry.dispatcher.settled();
  return res;
}

async function deliveries(w: World, query = ""): Promise<Delivery[]> {
  const res = await control(w.app, {
    method: "GET",
    path: `/__mock/projects/demo/webhooks/deliveries${query}`,
  });
  expect(res.status).toBe(200);
  return res.body.deliveries;
}

// The vendor's legacy Node SDK (`voucherify`), whose helper the webhook documentation points to.
const vendorUtils = createRequire(import.meta.url)("voucherify/utils") as {
  webhooks: { verifySignature(signature: string, message: unknown, secretKey: string): boolean };
};

describe("a delivery: envelope and signature", () => {
  it("POSTs the vendor's envelope, signed with the endpoint's secret, with its custom headers", async () => {
    const w = world();
    const hook = await receiver();
    const endpoint = await addEndpoint(w, { url: hook.url, secret: "s3cret", headers: { "x-extra": "v" } });
    const data = { voucher: { id: "v_1", code: "DEMO-1" } };
    const res = await operate(w, { notifications: [notification("voucher.published", "v_1", data)] });
    expect(res.status).toBe(200);

    expect(hook.received).toHaveLength(1);
    const [got] = hook.received;
    if (!got) throw new Error("nothing received");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-extra"]).toBe("v");
    const expected = createHmac("sha256", "s3cret").update(got.text).digest("hex");
    expect(got.headers["x-voucherify-signature"]).toBe(expected);
    expect(got.text).toBe(JSON.stringify(got.body));
    expect(Object.keys(got.body)).toEqual([
      "id",
      "project_id",
      "created_at",
      "type",
      "data",
      "source",
      "event",
    ]);
    expect(got.body).toEqual({
      id: expect.stringMatching(/^whs_[0-9a-f]{18}$/),
      project_id: "demo",
      created_at: "2026-11-20T10:00:00.000Z",
      type: "voucher.published",
      data: { ...data, object_id: "v_1" },
      source: { id: endpoint.id, object: "webhook", target_url: hook.url },
      event: {
        id: expect.stringMatching(/^evvou_[0-9a-f]{18}$/),
        type: "voucher.published",
        created_at: "2026-11-20T10:00:00.000Z",
        entity_id: "v_1",
        group_id: res.headers["x-request-id"],
        event_source: { channel: "API", api_key: { name: "Demo server-side key", app_id: "demo-app-id" } },
      },
    });

    const [delivery] = await deliveries(w);
    expect(delivery).toEqual({
      id: expect.stringMatching(/^whd_[0-9a-f]{18}$/),
      object: "webhook_delivery",
      webhook_id: endpoint.id,
      url: hook.url,
      type: "voucher.published",
      status: "delivered",
      created_at: "2026-11-20T10:00:00.000Z",
      envelope: got.body,
      attempts: 1,
      response_status: 200,
      response_time_ms: expect.any(Number),
      last_attempt_at: "2026-11-20T10:00:00.000Z",
      error: null,
    });
  });

  it("the signature passes the vendor SDK's verifySignature and ours, and fails for another body or secret", async () => {
    const w = world();
    const hook = await receiver();
    await addEndpoint(w, { url: hook.url, secret: "whsec-demo" });
    await operate(w, { notifications: [notification("customer.created", "cust_1", { name: 'Zoë "Z" ✓' })] });
    const [got] = hook.received;
    if (!got) throw new Error("nothing received");
    const signature = String(got.headers["x-voucherify-signature"]);
    expect(vendorUtils.webhooks.verifySignature(signature, got.body, "whsec-demo")).toBe(true);
    expect(vendorUtils.webhooks.verifySignature(signature, got.text, "whsec-demo")).toBe(true);
    expect(verifySignature(signature, got.text, "whsec-demo")).toBe(true);
    expect(verifySignature(signature, got.body, "whsec-demo")).toBe(true);
    expect(verifySignature(signature, got.text, "other")).toBe(false);
    expect(verifySignature(signature, { ...got.body, type: "customer.deleted" }, "whsec-demo")).toBe(false);
    expect(verifySignature("00", got.text, "whsec-demo")).toBe(false);
    // As a header arrives: in capitals, or with the white space of a folded or padded line around it.
    expect(verifySignature(` ${signature.toUpperCase()}\r\n`, got.text, "whsec-demo")).toBe(true);
  });

  it("the signing method reproduces the vendor's documented example (Java sample, secret 'secretKey')", () => {
    const documented = "a17d2ac229d1ebbb5f10e839c7985c4818e5986eab297f7e5979196d4d7d3ed2";
    expect(verifySignature(documented, '{"a":1}', "secretKey")).toBe(true);
    expect(verifySignature(documented, { a: 1 }, "secretKey")).toBe(true);
    expect(vendorUtils.webhooks.verifySignature(documented, { a: 1 }, "secretKey")).toBe(true);
  });

  it("sends `data` as it was when notified, even when a later operation changes the same card before the send", async () => {
    const w = world();
    // The first delivery is held, so the second operation runs before anything of the first is sent.
    const hook = await receiver(() => "hang");
    await addEndpoint(w, {
      url: hook.url,
      events: ["voucher.published", "voucher.loyalty_card.points_added"],
    });
    const assigned = await request(w.app)
      .post("/v1/loyalties/camp_demo_loyalty/members")
      .set(DEMO_KEYS)
      .send({ customer: { source_id: "later@example.com" } });
    expect(assigned.status).toBe(200);
    const paid = await request(w.app)
      .post("/v1/events")
      .set(DEMO_KEYS)
      .send({
        event: "user_subscribed",
        customer: { source_id: "later@example.com" },
        metadata: { plan: "pro" },
      });
    expect(paid.status).toBe(200);
    const points = w.demo.vouchers.get(assigned.body.id).loyalty_card?.points;
    expect(points).toBeGreaterThan(0);
    hook.release(200);
    await w.registry.dispatcher.settled();
    const [published, added] = hook.received.map(
      (got) => got.body as { type: string; data: { voucher: { loyalty_card: { points: number } } } },
    );
    expect(published?.type).toBe("voucher.published");
    expect(published?.data.voucher.loyalty_card.points).toBe(0);
    expect(added?.type).toBe("voucher.loyalty_card.points_added");
    expect(added?.data.voucher.loyalty_card.points).toBe(points);
  });

  it("an event's id is ev and the first three letters of its type's first part", async () => {
    const w = world();
    // The prefix is worked out once per type and kept for the process: a type of its own, new in every run, so
    // this test sees it worked out (the first part's letters are a, b, c; the rest makes it new).
    const fresh = `a1_b2_c3.${randomUUID()}`;
    for (const type of ["customer.created", fresh, "x.y"])
      await operate(w, { notifications: [notification(type, "v_1")] });
    const prefixes = (await deliveries(w)).map((d) => d.envelope.event.id.replace(/_.*$/, "_"));
    expect(prefixes).toEqual(["evcus_", "evabc_", "evx_"]);
  });

  it("created_at and last_attempt_at follow the project's clock when it is moved", async () => {
    const w = world();
    const hook = await receiver();
    await addEndpoint(w, { url: hook.url });
    await control(w.app, {
      method: "POST",
      path: "/__mock/projects/demo/clock",
      body: { set: "2030-01-02T03:04:05.000Z" },
    });
    await operate(w, { notifications: [notification("voucher.published", "v_2")] });
    const [delivery] = await deliveries(w);
    expect(delivery?.created_at).toBe("2030-01-02T03:04:05.000Z");
    expect(delivery?.envelope.event.created_at).toBe("2030-01-02T03:04:05.000Z");
    expect(delivery?.last_attempt_at).toBe("2030-01-02T03:04:05.000Z");
  });
});

describe("order and routing", () => {
  it("many notifications over many requests arrive in the order they happened, one at a time", async () => {
    const w = world();
    const hook = await receiver();
    await addEndpoint(w, { url: hook.url });
    const sent: string[] = [];
    const calls = [];
    for (let call = 0; call < 10; call++) {
      const batch = [0, 1, 2, 3, 4].map((n) =>
        notification("voucher.loyalty_card.points_added", `v_${call}_${n}`),
      );
      sent.push(...batch.map((n) => n.entityId));
      calls.push(request(w.notifier).post("/v1/test-notify").set(DEMO_KEYS).send({ notifications: batch }));
    }
    for (const call of calls) expect((await call).status).toBe(200);
    await w.registry.dispatcher.settled();
    const arrived = hook.received.map((got) => (got.body.event as { entity_id: string }).entity_id);
    const recorded = (await deliveries(w)).map((d) => d.envelope.event.entity_id);
    expect(recorded).toHaveLength(50);
    expect(arrived).toEqual(recorded);
    // Requests sent together may be served in any order, but each one's notifications stay together, in order.
    for (let call = 0; call < 10; call++) {
      const at = arrived.indexOf(`v_${call}_0`);
      expect(arrived.slice(at, at + 5)).toEqual(sent.slice(call * 5, call * 5 + 5));
    }
    expect(hook.maxConcurrent).toBe(1);
  });

  it("an endpoint gets the types it lists (all when it lists none); one event, a sendout per endpoint", async () => {
    const w = world();
    const published = await receiver();
    const all = await receiver();
    const onlyPublished = await addEndpoint(w, { url: published.url, events: ["voucher.published"] });
    const everything = await addEndpoint(w, { url: all.url });
    await operate(w, {
      notifications: [notification("customer.created", "cust_1"), notification("voucher.published", "v_1")],
    });
    expect(published.received.map((got) => got.body.type)).toEqual(["voucher.published"]);
    expect(all.received.map((got) => got.body.type)).toEqual(["customer.created", "voucher.published"]);
    const [a, b] = [published.received[0]?.body, all.received[1]?.body];
    expect(a?.event).toEqual(b?.event);
    expect(a?.id).not.toBe(b?.id);
    expect((await deliveries(w, `?webhook_id=${onlyPublished.id}`)).map((d) => d.type)).toEqual([
      "voucher.published",
    ]);
    expect(await deliveries(w, `?webhook_id=${everything.id}&type=customer.created`)).toHaveLength(1);
  });

  it("an inactive endpoint gets nothing: the notification is kept as not_sent", async () => {
    const w = world();
    const hook = await receiver();
    await addEndpoint(w, { url: hook.url, active: false });
    await operate(w, { notifications: [notification("voucher.published", "v_1")] });
    expect(hook.received).toEqual([]);
    const [kept] = await deliveries(w);
    expect(kept).toMatchObject({ webhook_id: null, url: null, status: "not_sent", attempts: 0 });
  });

  it("a refused request notifies nothing", async () => {
    const w = world();
    const hook = await receiver();
    await addEndpoint(w, { url: hook.url });
    const res = await operate(w, { refuse: true, notifications: [notification("voucher.published", "v_1")] });
    expect(res.status).toBe(400);
    expect(hook.received).toEqual([]);
    expect(await deliveries(w)).toEqual([]);
  });
});
