import { type RunningServer, startServer } from "loyalty-mock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const demoKeys = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };

// One server per test file, on a free port, serving the embedded demo data.
let mock: RunningServer;
let initialState: unknown;

beforeAll(async () => {
  mock = await startServer({ port: 0 });
  initialState = await (await fetch(`${mock.url}/__mock/projects/demo/state`)).json();
});

// Every test starts from the same state: put the snapshot back after each one.
afterEach(async () => {
  await fetch(`${mock.url}/__mock/projects/demo/state`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(initialState),
  });
});

afterAll(() => mock.close());

async function getToken(scope: string): Promise<string> {
  const res = await fetch(`${mock.url}/v1/oauth/token`, {
    method: "POST",
    headers: { ...demoKeys, "Content-Type": "application/x-www-form-urlencoded" },
    body: `grant_type=client_credentials&scope=${scope}`,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe("my app against loyalty-mock", () => {
  it("reads a location with an OAuth token", async () => {
    const token = await getToken("locations");
    const res = await fetch(`${mock.url}/v1/locations/loc_demo_circle`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: "loc_demo_circle", object: "location" });
  });

  it("sees what the app changed in the exported state", async () => {
    const token = await getToken("api");
    const state = (await (await fetch(`${mock.url}/__mock/projects/demo/state`)).json()) as {
      tokens: { access_token: string }[];
    };
    // Only this test's token: the snapshot was put back after the previous test.
    expect(state.tokens.map((t) => t.access_token)).toEqual([token]);
  });
});
