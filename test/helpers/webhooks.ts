import request from "supertest";
import { afterEach, expect } from "vitest";
import type { Delivery } from "../../src/domain/webhooks/outbox.js";
import type { GivenDefaults } from "../../src/index.js";
import { control } from "./control.js";
import { notification, notifyingApp, type Receiver, startReceiver } from "./receiver.js";
import { buildWorld, DEMO_KEYS, type World } from "./world.js";

/** The webhook test files' world: the demo fixtures, an app that notifies, receivers closed after each test. */
export type WebhookWorld = World & { notifier: ReturnType<typeof notifyingApp> };

export function webhookWorld(webhooks: GivenDefaults["webhooks"] = {}): WebhookWorld {
  const built = buildWorld({ defaults: { webhooks } });
  return { ...built, notifier: notifyingApp(built.registry) };
}

/** Real receivers on loopback, each closed after the test that started it (call at the top of a test file). */
export function useReceivers(): (
  answer?: Receiver["answer"],
  port?: number,
  host?: string,
) => Promise<Receiver> {
  const receivers: Receiver[] = [];
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
  });
  return async (answer, port, host) => {
    const started = await startReceiver(answer, port, host);
    receivers.push(started);
    return started;
  };
}

export async function addEndpoint(w: World, url: string): Promise<string> {
  const res = await control(w.app, { method: "POST", path: "/__mock/projects/demo/webhooks", body: { url } });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** One notifying request with `count` notifications of `type`, about v_0, v_1, … */
export const notify = (w: WebhookWorld, count = 1, type = "voucher.published") =>
  request(w.notifier)
    .post("/v1/test-notify")
    .set(DEMO_KEYS)
    .send({ notifications: Array.from({ length: count }, (_, n) => notification(type, `v_${n}`)) });

export async function deliveries(w: World, query = ""): Promise<Delivery[]> {
  const res = await control(w.app, {
    method: "GET",
    path: `/__mock/projects/demo/webhooks/deliveries${query}`,
  });
  expect(res.status).toBe(200);
  return res.body.deliveries;
}

export const resend = (w: World, id: string) =>
  control(w.app, { method: "POST", path: `/__mock/projects/demo/webhooks/deliveries/${id}/resend` });
