import { type RunningServer, startServer } from "loyalty-mock";
import { afterAll, beforeAll, expect, it } from "vitest";

let mock: RunningServer;
beforeAll(async () => {
  mock = await startServer({ port: 0 });
});
afterAll(() => mock.close());

it("reads a location with the demo keys", async () => {
  const headers = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };
  const res = await fetch(`${mock.url}/v1/locations/loc_demo_circle`, { headers });
  expect(res.status).toBe(200);
});
