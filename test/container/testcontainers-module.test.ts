import { LoyaltyMockContainer, type StartedLoyaltyMockContainer } from "loyalty-mock/testcontainers";
import { afterAll, beforeAll, expect, it } from "vitest";

// The image `docker build -t loyalty-mock .` made, unless CI names the one it built.
const image = process.env.LOYALTY_MOCK_IMAGE ?? "loyalty-mock";

let mock: StartedLoyaltyMockContainer;

beforeAll(async () => {
  mock = await new LoyaltyMockContainer(image)
    .withSeed("my-tests") // the same ids, codes and tokens on every run
    .withFrozenClock("2026-03-01T09:00:00Z") // every project's clock stands here until a test moves it
    .withSettings({ LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: 0 }) // no rate limit for a fast suite
    .start();
}, 120_000);

afterAll(() => mock?.stop());

/** A project of this test's own, copied from the demo project's fixtures: its keys and its control calls. */
async function freshProject() {
  const created = await mock.control.createProject({ template: "demo" });
  const headers = { "X-App-Id": created.app_id, "X-App-Token": created.app_token };
  return { headers, control: mock.control.project(created.project_id) };
}

it("reads a location with the default project's keys", async () => {
  const res = await fetch(`${mock.url}/v1/locations/loc_demo_circle`, { headers: mock.headers });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ id: "loc_demo_circle", object: "location" });
});

it("a new member gets a loyalty card, and the journal shows the call", async () => {
  const project = await freshProject();
  const res = await fetch(`${mock.url}/v1/loyalties/camp_demo_loyalty/members`, {
    method: "POST",
    headers: { ...project.headers, "Content-Type": "application/json" },
    body: JSON.stringify({ customer: { source_id: "ada@example.com", name: "Ada" } }),
  });
  expect(res.status).toBe(200);
  const [call] = await project.control.requests({ operation: "addMember" });
  expect(call).toMatchObject({ method: "POST", status: 200 });
  // The card's notification waits in the outbox, whether or not an endpoint wants it.
  const deliveries = await project.control.deliveries({ type: "voucher.published" });
  expect(deliveries).toHaveLength(1);
});

it("a token expires when the project's clock moves past its 900 seconds", async () => {
  const project = await freshProject();
  const token = await fetch(`${mock.url}/v1/oauth/token`, {
    method: "POST",
    headers: project.headers,
    body: new URLSearchParams({ grant_type: "client_credentials", scope: "api" }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const bearer = { Authorization: `Bearer ${access_token}` };
  expect((await fetch(`${mock.url}/v1/locations/loc_demo_circle`, { headers: bearer })).status).toBe(200);
  expect((await project.control.clock()).now).toBe("2026-03-01T09:00:00.000Z");
  await project.control.moveClock({ advance_seconds: 901 });
  expect((await fetch(`${mock.url}/v1/locations/loc_demo_circle`, { headers: bearer })).status).toBe(401);
});

it("a fault rule makes the next call fail, then the project answers again", async () => {
  const project = await freshProject();
  await project.control.addFault({ path: "/v1/locations/*", action: "error", status: 503, times: 1 });
  const get = () => fetch(`${mock.url}/v1/locations/loc_demo_circle`, { headers: project.headers });
  expect((await get()).status).toBe(503);
  expect((await get()).status).toBe(200);
});

it("a snapshot puts the project back as it was", async () => {
  const project = await freshProject();
  await project.control.saveSnapshot("start");
  await project.control.moveClock({ advance_seconds: 86_400 });
  await project.control.restoreSnapshot("start");
  expect((await project.control.clock()).now).toBe("2026-03-01T09:00:00.000Z");
});
