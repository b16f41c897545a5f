import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, killGroup, launch, listeningOn, type Started, waitForOutput } from "../helpers/process.js";

const ADMIN = { "X-Mock-Admin-Token": "ci-admin-secret" };

/** The CI recipe of docs/guide/ci.md, step by step, against the real process. */
describe("the CI recipe on the real server process", () => {
  let server: Started;
  let base: string;

  async function controlCall(method: string, path: string, body?: unknown) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...ADMIN, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    build();
    server = launch("node", ["dist/main.js"], {
      LOYALTY_MOCK_PORT: "0",
      // Debug logs the request headers, so the redaction of the admin token is seen on the real process.
      LOYALTY_MOCK_LOG_LEVEL: "debug",
      LOYALTY_MOCK_FIXTURES_DIR: "",
      LOYALTY_MOCK_ADMIN_TOKEN: ADMIN["X-Mock-Admin-Token"],
      LOYALTY_MOCK_JOURNAL_SIZE: "50",
    });
    // 1. Read the address it took (port 0), then wait on health: 200 once the fixtures are loaded.
    ({ base } = await listeningOn(server));
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (server.child.exitCode !== null) throw new Error(`exited: ${server.stderr()}`);
      const status = await fetch(`${base}/__mock/health`, { headers: ADMIN }).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 200) break;
      if (Date.now() > deadline) throw new Error("no health");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(() => killGroup(server, "SIGKILL"));

  it("health says ok; without the admin token the control API is closed", async () => {
    const health = await controlCall("GET", "/__mock/health");
    expect(health.body).toMatchObject({ status: "ok", projects: 2 });
    expect((await fetch(`${base}/__mock/health`)).status).toBe(401);
  });

  it("a project per job, the application's calls, then the journal", async () => {
    const created = await controlCall("POST", "/__mock/projects", { template: "demo", project_id: "job-1" });
    expect(created.status).toBe(201);
    const keys = { "X-App-Id": String(created.body.app_id), "X-App-Token": String(created.body.app_token) };

    const location = await fetch(`${base}/v1/locations/loc_demo_circle`, { headers: keys });
    expect(location.status).toBe(200);
    const missing = await fetch(`${base}/v1/locations/loc_nope`, { headers: keys });
    expect(missing.status).toBe(404);

    const journal = await controlCall("GET", "/__mock/projects/job-1/requests?status=4xx");
    expect(journal.body.requests).toEqual([
      expect.objectContaining({
        method: "GET",
        path: "/v1/locations/loc_nope",
        status: 404,
        authenticated: true,
      }),
    ]);
    expect((await controlCall("DELETE", "/__mock/projects/job-1")).body).toEqual({
      object: "project",
      id: "job-1",
      deleted: true,
    });
  });

  it("keeps the admin token and key secrets out of the logs", async () => {
    // Log lines follow the answers: wait for the redacted header rather than for a fixed time.
    await waitForOutput(server, "stdout", /"x-mock-admin-token":"\[redacted\]"/);
    expect(server.stdout()).not.toContain(ADMIN["X-Mock-Admin-Token"]);
  });
});
