import { describe, expect, it } from "vitest";
import type { NotificationCause } from "../../src/domain/webhooks/envelope.js";
import { lazyNotification } from "../../src/domain/webhooks/notification.js";
import { buildWorld } from "../helpers/world.js";

/**
 * A notification no endpoint takes is kept unbuilt (issue 26): its payload, event, envelope and delivery are made
 * the first time the outbox is read, from what was captured when it happened, and the outbox shows the same.
 */

const cause: NotificationCause = { requestId: "v-000000000000000001", apiKey: { name: "CI", app_id: "app" } };

function counted() {
  const built = { count: 0 };
  const notification = lazyNotification("customer.created", "cust_1", () => {
    built.count++;
    return { customer: { id: "cust_1", object: "customer" } };
  });
  return { built, notification };
}

describe("unsent deliveries", () => {
  it("build nothing until the outbox is read, then once, the same record on every read", () => {
    const w = buildWorld();
    const project = w.registry.get("demo");
    const { built, notification } = counted();
    w.registry.dispatcher.notify(project, [notification], cause);
    expect(project.outbox.size).toBe(1);
    expect(built.count).toBe(0);

    const [first] = project.outbox.list();
    expect(built.count).toBe(1);
    expect(first).toMatchObject({
      id: expect.stringMatching(/^whd_[0-9a-f]{18}$/),
      object: "webhook_delivery",
      webhook_id: null,
      url: null,
      type: "customer.created",
      status: "not_sent",
      attempts: 0,
      envelope: {
        id: expect.stringMatching(/^whs_[0-9a-f]{18}$/),
        project_id: "demo",
        type: "customer.created",
        data: { customer: { id: "cust_1", object: "customer" } },
        source: null,
        event: {
          id: expect.stringMatching(/^evcus_[0-9a-f]{18}$/),
          type: "customer.created",
          entity_id: "cust_1",
          group_id: cause.requestId,
          event_source: { channel: "API", api_key: { name: "CI", app_id: "app" } },
        },
      },
    });
    expect(project.outbox.get(String(first?.id))).toBe(first);
    expect(project.outbox.list()[0]).toBe(first);
    expect(built.count).toBe(1);
  });

  it("keep the time they happened at, not the time they are read", () => {
    const w = buildWorld();
    const project = w.registry.get("demo");
    const at = project.clock.iso();
    w.registry.dispatcher.notify(project, [counted().notification], cause);
    w.clock.advance(60);
    const [delivery] = project.outbox.list();
    expect(delivery?.created_at).toBe(at);
    expect(delivery?.envelope.created_at).toBe(at);
    expect(delivery?.envelope.event.created_at).toBe(at);
  });

  it("are not kept with an outbox of size 0, and their payload is never built", () => {
    const w = buildWorld({ defaults: { webhooks: { outboxSize: 0 } } });
    const project = w.registry.get("demo");
    const { built, notification } = counted();
    w.registry.dispatcher.notify(project, [notification], cause);
    expect(project.outbox.list()).toEqual([]);
    expect(built.count).toBe(0);
  });
});
