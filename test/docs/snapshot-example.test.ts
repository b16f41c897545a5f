import { type RunningServer, startServer } from "loyalty-mock";
import { afterAll, beforeAll, expect, it } from "vitest";

const demoKeys = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };

// A seed and a frozen clock: every id, code, token and timestamp is the same on every run.
let mock: RunningServer;
beforeAll(async () => {
  mock = await startServer({ port: 0, seed: "my-snapshots", freezeClock: "2026-01-01T09:00:00.000Z" });
});
afterAll(() => mock.close());

it("assigns a loyalty card, and notifies as it did last time", async () => {
  const res = await fetch(`${mock.url}/v1/loyalties/camp_demo_loyalty/members`, {
    method: "POST",
    headers: { ...demoKeys, "Content-Type": "application/json" },
    body: JSON.stringify({ customer: { source_id: "ada@example.com", name: "Ada" } }),
  });
  expect(res.status).toBe(200);
  // The request id is seeded too; the Date header is not (it is the real time of the answer).
  expect({ requestId: res.headers.get("x-request-id"), card: await res.json() }).toMatchSnapshot();

  // The webhook deliveries the assignment made, as the project's outbox keeps them.
  await mock.registry.dispatcher.settled();
  const outbox = await fetch(`${mock.url}/__mock/projects/demo/webhooks/deliveries`);
  const { deliveries } = await outbox.json();
  expect(deliveries).toMatchSnapshot();
});
