import { describe, expect, it, vi } from "vitest";
import type { Delivery } from "../../src/domain/webhooks/outbox.js";
import { createRegistry } from "../../src/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { startServer } from "../../src/server.js";
import { control } from "../helpers/control.js";
import { notification } from "../helpers/receiver.js";
import {
  addEndpoint,
  deliveries,
  notify,
  resend,
  useReceivers,
  webhookWorld as world,
} from "../helpers/webhooks.js";
import { defaultDocuments } from "../helpers/world.js";

/** Resending, the outbox (kept, bounded, filtered, emptied, listened to) and shutting down with a stuck receiver. */

const receiver = useReceivers();

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

  it("filters by type, status and endpoint, each alone and together", async () => {
    const w = world();
    const hook = await receiver();
    const id = await addEndpoint(w, hook.url);
    await notify(w, 1, "customer.created");
    await notify(w, 2, "voucher.published");
    await w.registry.dispatcher.settled();
    const shown = async (query: string) =>
      (await deliveries(w, query)).map((d) => [d.type, d.envelope.event.entity_id, d.status]);
    expect(await shown("?type=customer.created")).toEqual([["customer.created", "v_0", "delivered"]]);
    expect(await shown("?type=voucher.published")).toEqual([
      ["voucher.published", "v_0", "delivered"],
      ["voucher.published", "v_1", "delivered"],
    ]);
    expect(await shown(`?webhook_id=${id}&type=customer.created&status=delivered`)).toEqual([
      ["customer.created", "v_0", "delivered"],
    ]);
    expect(await shown("?status=failed")).toEqual([]);
    expect(await shown("?webhook_id=wh_000000000000000000")).toEqual([]);
  });

  it("a seeded project's unsent deliveries draw their ids when they happen, whenever the outbox is read", () => {
    const cause = { requestId: "v-000000000000000001", apiKey: { name: "k", app_id: "demo-app-id" } };
    /** The ids of an unsent delivery and of an endpoint made after it, the outbox read before or after. */
    const drawn = (readFirst: boolean) => {
      const registry = createRegistry({
        clock: new ManualClock("2026-11-20T10:00:00.000Z"),
        documents: defaultDocuments(),
        seed: "outbox-ids",
      });
      const project = registry.get("demo");
      registry.dispatcher.notify(project, [notification("customer.created", "cust_1")], cause);
      if (readFirst) project.outbox.list();
      const endpoint = project.webhooks.create(
        { url: "http://127.0.0.1:9/hooks", events: [], active: true, headers: {} },
        { projectId: project.id, nowIso: project.clock.iso(), limit: 10, hosts: [], ids: project.ids },
      );
      const [delivery] = project.outbox.list();
      return [delivery?.id, delivery?.envelope.id, delivery?.envelope.event.id, endpoint.id, endpoint.secret];
    };
    const early = drawn(true);
    expect(early).toEqual(drawn(false));
    expect(new Set(early).size).toBe(5);
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
    await vi.waitUntil(() => hook.received.length > 0, { timeout: 10_000, interval: 5 });
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
      { projectId: project.id, nowIso: project.clock.iso(), limit: 10, hosts: [] },
    );
    server.registry.dispatcher.notify(project, [notification("voucher.published", "v_1")], {
      requestId: "v-000000000000000000",
      apiKey: { name: "k", app_id: "demo-app-id" },
    });
    await server.close();
    expect(project.outbox.list()[0]).toMatchObject({ status: "failed" });
  });
});
