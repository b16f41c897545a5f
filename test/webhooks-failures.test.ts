import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import type { Delivery } from "../src/domain/webhooks/outbox.js";
import type { GivenDefaults } from "../src/library.js";
import { startServer } from "../src/server.js";
import { control } from "./helpers/control.js";
import { closedPort, notification, notifyingApp, type Receiver, startReceiver } from "./helpers/receiver.js";
import { buildWorld, DEMO_KEYS, defaultDocuments, type World } from "./helpers/world.js";

/**
 * Receivers that fail: a 500, one that hangs past the timeout, a closed port, a full queue, a host the server may
 * not send to, and a shutdown while one hangs. Each ends as a failed delivery with its reason; nothing blocks the
 * operation or the server, and a resend delivers once the receiver is back.
 */

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(answer?: Receiver["answer"], port?: number): Promise<Receiver> {
  const started = await startReceiver(answer, port);
  receivers.push(started);
  return started;
}

type W = World & { notifier: ReturnType<typeof notifyingApp> };

function world(webhooks: GivenDefaults["webhooks"] = {}): W {
  const built = buildWorld({ defaults: { webhooks } });
  return { ...built, notifier: notifyingApp(built.registry) };
}

async function addEndpoint(w: World, url: string): Promise<string> {
  const res = await control(w.app, { method: "POST", path: "/__mock/projects/demo/webhooks", body: { url } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const notify = (w: W, count = 1, type = "voucher.published") =>
  request(w.notifier)
    .post("/v1/test-notify")
    .set(DEMO_KEYS)
    .send({ notifications: Array.from({ length: count }, (_, n) => notification(type, `v_${n}`)) });

async function deliveries(w: World, query = ""): Promise<Delivery[]> {
  const res = await control(w.app, {
    method: "GET",
    path: `/__mock/projects/demo/webhooks/deliveries${query}`,
  });
  expect(res.status).toBe(200);
  return res.body.deliveries;
}

const resend = (w: World, id: string) =>
  control(w.app, { method: "POST", path: `/__mock/projects/demo/webhooks/deliveries/${id}/resend` });

describe("a receiver that fails", () => {
  it("answers 500: failed with its status; a resend once it answers 200 delivers", async () => {
    const w = world();
    const hook = await receiver(() => 500);
    await addEndpoint(w, hook.url);
    expect((await notify(w)).status).toBe(200);
    await w.registry.dispatcher.settled();
    const [failed] = await deliveries(w);
    expect(failed).toMatchObject({
      status: "failed",
      attempts: 1,
      response_status: 500,
      error: "the receiver answered 500; a 2xx is expected",
    });
    hook.answer = () => 200;
    const again = await resend(w, String(failed?.id));
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: failed?.id, status: "pending", attempts: 1 });
    await w.registry.dispatcher.settled();
    const [delivered] = await deliveries(w);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 2, response_status: 200, error: null });
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]?.text).toBe(hook.received[0]?.text);
  });

  it("hangs past the timeout: the operation has answered, the delivery fails with the timeout", async () => {
    const w = world({ timeoutMs: 200 });
    const hook = await receiver(() => "hang");
    await addEndpoint(w, hook.url);
    expect((await notify(w)).status).toBe(200);
    // The answer went out before any delivery was attempted.
    expect((await deliveries(w))[0]?.status).toBe("pending");
    await w.registry.dispatcher.settled();
    expect((await deliveries(w))[0]).toMatchObject({
      status: "failed",
      response_status: null,
      response_time_ms: null,
      error: "timed out after 200 ms",
    });
  });

  it("refuses connections: failed with the error; a resend once it listens is delivered once", async () => {
    const w = world();
    const port = await closedPort();
    await addEndpoint(w, `http://127.0.0.1:${port}/hooks`);
    await notify(w);
    await w.registry.dispatcher.settled();
    const [failed] = await deliveries(w);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, response_status: null });
    expect(failed?.error).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
    const hook = await receiver(() => 200, port);
    expect((await resend(w, String(failed?.id))).status).toBe(202);
    await w.registry.dispatcher.settled();
    expect((await deliveries(w))[0]).toMatchObject({
      status: "delivered",
      attempts: 2,
      response_status: 200,
    });
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]?.body.id).toBe(failed?.envelope.id);
  });

  it("a full queue: deliveries past WEBHOOK_QUEUE_LIMIT fail at once, unsent; the rest go out in order", async () => {
    const w = world({ queueLimit: 2 });
    const hook = await receiver(() => "hang");
    const id = await addEndpoint(w, hook.url);
    expect((await notify(w, 5)).status).toBe(200);
    const overflowed = await deliveries(w, "?status=failed");
    expect(overflowed.map((d) => d.envelope.event.entity_id)).toEqual(["v_3", "v_4"]);
    for (const delivery of overflowed) {
      expect(delivery.attempts).toBe(0);
      expect(delivery.error).toBe(
        `not sent: 2 deliveries already wait for ${id} (LOYALTY_MOCK_WEBHOOK_QUEUE_LIMIT)`,
      );
    }
    hook.release(200);
    await w.registry.dispatcher.settled();
    expect(hook.received.map((got) => (got.body.event as { entity_id: string }).entity_id)).toEqual([
      "v_0",
      "v_1",
      "v_2",
    ]);
    expect((await deliveries(w, "?status=delivered")).length).toBe(3);
  });

  it("a target the server may not send to (from a document) fails without a connection", async () => {
    const w = world();
    const document = structuredClone(defaultDocuments().find((d) => d.project.id === "demo"));
    if (!document) throw new Error("no demo fixtures");
    document.webhooks = [
      {
        id: "wh_0000000000000000ff",
        object: "webhook",
        url: "http://192.0.2.10/hooks",
        events: [],
        active: true,
        headers: {},
        secret: "x",
        created_at: "2026-11-20T10:00:00.000Z",
      },
    ];
    w.registry.replace(document);
    await notify(w);
    await w.registry.dispatcher.settled();
    const [failed] = await deliveries(w);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, response_status: null });
    expect(failed?.error).toMatch(
      /^not sent: host 192\.0\.2\.10 is not allowed: .*LOYALTY_MOCK_WEBHOOK_HOSTS/,
    );
  });
});

describe("resend", () => {
  it("409 for a not_sent delivery, a pending one, and one whose endpoint was deleted; 404 for none", async () => {
    const w = world();
    await notify(w);
    const [notSent] = await deliveries(w);
    expect(notSent?.status).toBe("not_sent");
    const refused = await resend(w, String(notSent?.id));
    expect(refused.status).toBe(409);
    expect(refused.body.details).toMatch(
      /was not sent: no active webhook endpoint wanted voucher\.published/,
    );

    const hook = await receiver(() => "hang");
    const id = await addEndpoint(w, hook.url);
    await notify(w);
    const pending = (await deliveries(w, "?status=pending"))[0];
    expect((await resend(w, String(pending?.id))).body.details).toMatch(/is pending/);
    hook.release(500);
    await w.registry.dispatcher.settled();
    await control(w.app, { method: "DELETE", path: `/__mock/projects/demo/webhooks/${id}` });
    const gone = await resend(w, String(pending?.id));
    expect(gone.status).toBe(409);
    expect(gone.body.details).toBe(`Webhook ${id} of delivery ${pending?.id} has been deleted`);
    const unknown = await resend(w, "whd_000000000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.details).toBe("Cannot find webhook_delivery with id whd_000000000000000000");
  });
});

describe("the outbox", () => {
  it("keeps what would have been sent with no endpoint: once per notification, with no source", async () => {
    const w = world();
    await notify(w, 2, "customer.created");
    const kept = await deliveries(w);
    expect(kept).toHaveLength(2);
    for (const delivery of kept)
      expect(delivery).toMatchObject({
        webhook_id: null,
        url: null,
        type: "customer.created",
        status: "not_sent",
        attempts: 0,
        last_attempt_at: null,
        envelope: { project_id: "demo", type: "customer.created", source: null },
      });
  });

  it("keeps the newest WEBHOOK_OUTBOX_SIZE; limit shows the newest, total counts all that match; DELETE empties it", async () => {
    const w = world({ outboxSize: 3 });
    await notify(w, 5);
    const kept = await deliveries(w);
    expect(kept.map((d) => d.envelope.event.entity_id)).toEqual(["v_2", "v_3", "v_4"]);
    const limited = await control(w.app, {
      method: "GET",
      path: "/__mock/projects/demo/webhooks/deliveries?limit=2",
    });
    expect(limited.body.total).toBe(3);
    expect(limited.body.deliveries.map((d: Delivery) => d.envelope.event.entity_id)).toEqual(["v_3", "v_4"]);
    const bad = await control(w.app, {
      method: "GET",
      path: "/__mock/projects/demo/webhooks/deliveries?status=sent",
    });
    expect(bad.status).toBe(400);
    const cleared = await control(w.app, {
      method: "DELETE",
      path: "/__mock/projects/demo/webhooks/deliveries",
    });
    expect(cleared.status).toBe(204);
    expect(await deliveries(w)).toEqual([]);
  });

  it("tells its listener of every delivery made and every change of status", async () => {
    const w = world();
    const told: string[] = [];
    w.registry.dispatcher.onDeliveryChange = (projectId) => told.push(projectId);
    const hook = await receiver();
    await addEndpoint(w, hook.url);
    await notify(w);
    await w.registry.dispatcher.settled();
    expect(told).toEqual(["demo", "demo"]);
    w.registry.dispatcher.onDeliveryChange = () => {
      throw new Error("a broken listener");
    };
    await notify(w);
    await w.registry.dispatcher.settled();
    expect((await deliveries(w)).map((d) => d.status)).toEqual(["delivered", "delivered"]);
  });
});

describe("shutdown", () => {
  it("does not wait for a receiver that hangs: the delivery is aborted and recorded as failed", async () => {
    const w = world({ timeoutMs: 600_000 });
    const hook = await receiver(() => "hang");
    await addEndpoint(w, hook.url);
    await notify(w, 2);
    while (hook.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await w.registry.dispatcher.close(0);
    expect((await deliveries(w)).map((d) => [d.status, d.error])).toEqual([
      ["failed", "aborted: the server is shutting down"],
      ["failed", "not sent: the server shut down first"],
    ]);
  });

  it("a listening server's close() gives a hanging receiver only its grace", async () => {
    const hook = await receiver(() => "hang");
    const server = await startServer({ port: 0, documents: defaultDocuments(), webhookTimeoutMs: 300 });
    const project = server.registry.get("demo");
    project.webhooks.create(
      { url: hook.url, events: [], active: true, headers: {} },
      { nowIso: project.clock.iso(), limit: 10, hosts: [] },
    );
    server.registry.dispatcher.notify(project, [notification("voucher.published", "v_1")], {
      requestId: "v-000000000000000000",
      apiKey: { name: "k", app_id: "demo-app-id" },
    });
    await server.close();
    expect(project.outbox.list()[0]).toMatchObject({ status: "failed" });
  });
});
