import { describe, expect, it, vi } from "vitest";
import {
  addEndpoint,
  deliveries,
  notify,
  resend,
  useReceivers,
  webhookWorld as world,
} from "../helpers/webhooks.js";

/**
 * The dispatcher's lines: one per endpoint, the queue limit counted beside the delivery in flight, the listener told
 * of each change, an outbox of size 0, and what a closed dispatcher does with what comes after.
 */

const receiver = useReceivers();

const entityIds = (got: { body: Record<string, unknown> }[]) =>
  got.map((g) => (g.body.event as { entity_id: string }).entity_id);

describe("one line per endpoint", () => {
  it("a receiver that hangs holds up only its own endpoint's line", async () => {
    const w = world({ timeoutMs: 600_000 });
    const stuck = await receiver(() => "hang");
    const fine = await receiver();
    await addEndpoint(w, stuck.url);
    await addEndpoint(w, fine.url);
    expect((await notify(w, 2)).status).toBe(200);
    // Both first deliveries are attempted although the stuck receiver never answers its own.
    await vi.waitUntil(() => fine.received.length === 2 && stuck.received.length === 1, {
      timeout: 30_000,
      interval: 5,
    });
    expect(entityIds(fine.received)).toEqual(["v_0", "v_1"]);
    stuck.release(200);
    await w.registry.dispatcher.settled();
    expect(entityIds(stuck.received)).toEqual(["v_0", "v_1"]);
  });

  it("the queue limit counts the waiting deliveries, not the one in flight", async () => {
    const w = world({ queueLimit: 2, timeoutMs: 600_000 });
    const hook = await receiver(() => "hang");
    const id = await addEndpoint(w, hook.url);
    expect((await notify(w)).status).toBe(200);
    await vi.waitUntil(() => hook.received.length === 1, { timeout: 30_000, interval: 5 });
    // v_0 is in flight: two more may wait behind it, the third is refused.
    expect((await notify(w, 3)).status).toBe(200);
    const failed = await deliveries(w, "?status=failed");
    expect(failed.map((d) => [d.envelope.event.entity_id, d.attempts, d.error])).toEqual([
      ["v_2", 0, `not sent: 2 deliveries already wait for ${id} (LOYALTY_MOCK_WEBHOOK_QUEUE_LIMIT)`],
    ]);
    hook.release(200);
    await w.registry.dispatcher.settled();
    expect(entityIds(hook.received)).toEqual(["v_0", "v_0", "v_1"]);
  });
});

describe("the listener", () => {
  it("is told when a resend queues a delivery again, and again when it is attempted", async () => {
    const w = world();
    const hook = await receiver(() => 500);
    await addEndpoint(w, hook.url);
    await notify(w);
    await w.registry.dispatcher.settled();
    const [failed] = await deliveries(w);
    const told: string[] = [];
    const statuses: string[] = [];
    w.registry.dispatcher.onDeliveryChange = (projectId) => {
      told.push(projectId);
      statuses.push(w.demo.outbox.get(String(failed?.id)).status);
    };
    hook.answer = () => 200;
    expect((await resend(w, String(failed?.id))).status).toBe(202);
    await w.registry.dispatcher.settled();
    expect(told).toEqual(["demo", "demo"]);
    expect(statuses).toEqual(["pending", "delivered"]);
  });
});

describe("an outbox of size 0", () => {
  it("keeps nothing and tells no listener of a notification no endpoint takes", async () => {
    const w = world({ outboxSize: 0 });
    const told: string[] = [];
    w.registry.dispatcher.onDeliveryChange = (projectId) => told.push(projectId);
    expect((await notify(w, 2)).status).toBe(200);
    await w.registry.dispatcher.settled();
    expect(told).toEqual([]);
    expect(await deliveries(w)).toEqual([]);
  });

  it("keeps nothing, and deliveries to an endpoint still go out", async () => {
    const w = world({ outboxSize: 0 });
    const hook = await receiver();
    await addEndpoint(w, hook.url);
    expect((await notify(w, 2)).status).toBe(200);
    await w.registry.dispatcher.settled();
    expect(entityIds(hook.received)).toEqual(["v_0", "v_1"]);
    expect(await deliveries(w)).toEqual([]);
  });
});

describe("a closed dispatcher", () => {
  it("close() without a grace gives a hanging receiver at most 2 s, however long the timeout", async () => {
    const w = world({ timeoutMs: 600_000 });
    const hook = await receiver(() => "hang");
    await addEndpoint(w, hook.url);
    await notify(w);
    await vi.waitUntil(() => hook.received.length === 1, { timeout: 30_000, interval: 5 });
    // The grace is min(timeout, 2 s): with the timeout's 600 s instead, this would outlast the test's own limit.
    // Counted on fake timers, so that the test says the grace is 2 s, not "at most", without waiting for it; the
    // delivery's own timer, set before, is real, and cleared as the abort ends it.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldClearNativeTimers: true });
    try {
      let closed = false;
      const closing = w.registry.dispatcher.close().then(() => {
        closed = true;
      });
      await vi.advanceTimersByTimeAsync(1999);
      expect(closed).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await closing;
    } finally {
      vi.useRealTimers();
    }
    expect((await deliveries(w)).map((d) => [d.status, d.error])).toEqual([
      ["failed", "aborted: the server is shutting down"],
    ]);
  });

  it("fails what comes after at once, unsent: a new notification and a resend", async () => {
    const w = world();
    const hook = await receiver();
    await addEndpoint(w, hook.url);
    await notify(w);
    await w.registry.dispatcher.settled();
    const [delivered] = await deliveries(w);
    expect(delivered?.status).toBe("delivered");
    await w.registry.dispatcher.close();
    expect((await notify(w, 2)).status).toBe(200);
    const again = await resend(w, String(delivered?.id));
    expect(again.status).toBe(202);
    await w.registry.dispatcher.settled();
    expect(
      (await deliveries(w)).map((d) => [d.envelope.event.entity_id, d.status, d.attempts, d.error]),
    ).toEqual([
      ["v_0", "failed", 1, "not sent: the server is shutting down"],
      ["v_0", "failed", 0, "not sent: the server is shutting down"],
      ["v_1", "failed", 0, "not sent: the server is shutting down"],
    ]);
    expect(hook.received).toHaveLength(1);
  });
});
