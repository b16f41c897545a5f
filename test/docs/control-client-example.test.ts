import { type RunningServer, startServer } from "loyalty-mock";
import { ControlClient } from "loyalty-mock/control-client";
import { afterAll, beforeAll, expect, it } from "vitest";

let mock: RunningServer;
let control: ControlClient;

beforeAll(async () => {
  mock = await startServer({ port: 0, adminToken: "test-token" });
  control = new ControlClient(mock.url, { adminToken: "test-token" });
});

afterAll(() => mock.close());

it("a token expires when the test's own project's clock moves past its 900 seconds", async () => {
  const created = await control.createProject({ template: "demo" });
  const project = control.project(created.project_id);
  const token = await fetch(`${mock.url}/v1/oauth/token`, {
    method: "POST",
    headers: { "X-App-Id": created.app_id, "X-App-Token": created.app_token },
    body: new URLSearchParams({ grant_type: "client_credentials", scope: "api" }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  await project.moveClock({ advance_seconds: 901 });
  const res = await fetch(`${mock.url}/v1/locations/loc_demo_circle`, {
    headers: { Authorization: `Bearer ${access_token}` },
  });
  expect(res.status).toBe(401);
  const [refused] = await project.requests({ status: 401 });
  expect(refused).toMatchObject({ operation: "getLocation", path: "/v1/locations/loc_demo_circle" });
});
