import { describe, expect, it } from "vitest";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import { createApp, createRegistry, ManualClock } from "../../src/index.js";
import { DEFAULT_FIXTURES_DIR } from "../../src/platform/fixtures.js";
import { control } from "../helpers/control.js";
import { send } from "../helpers/http.js";
import { DEMO_KEYS } from "../helpers/world.js";

/** Issue 28: one seeded generator per project, and the per-project seed the control API takes. */

const OTHER_KEYS = { "X-App-Id": "other-app-id", "X-App-Token": "other-app-token" };

function seededApp(options: { seed?: string; freezeClock?: string } = {}) {
  const registry = createRegistry({
    clock: new ManualClock(),
    documents: loadProjectDocuments(DEFAULT_FIXTURES_DIR),
    ...options,
  });
  return { registry, app: createApp({ registry }) };
}

async function token(app: Parameters<typeof send>[0], keys: Record<string, string>) {
  const res = await send(app, {
    method: "POST",
    path: "/v1/oauth/token",
    headers: keys,
    form: true,
    body: "grant_type=client_credentials&scope=api",
  });
  expect(res.status).toBe(200);
  return { token: res.body.access_token as string, requestId: res.headers["x-request-id"] as string };
}

describe("seeded generators are per project", () => {
  it("traffic on one project does not shift another project's ids", async () => {
    const quiet = seededApp({ seed: "per-project" });
    const busy = seededApp({ seed: "per-project" });
    for (let i = 0; i < 5; i++) await token(busy.app, OTHER_KEYS);
    await control(busy.app, { method: "GET", path: "/__mock/projects" });
    expect(await token(busy.app, DEMO_KEYS)).toEqual(await token(quiet.app, DEMO_KEYS));
    // Within one project the stream moves on: the next token is another.
    const [a, b] = [await token(quiet.app, DEMO_KEYS), await token(quiet.app, DEMO_KEYS)];
    expect(a.token).not.toBe(b.token);
  });

  it("a reset starts the project's stream again, so a suite that resets between tests gets the same ids", async () => {
    const { app } = seededApp({ seed: "reset" });
    const before = await token(app, DEMO_KEYS);
    await control(app, { method: "POST", path: "/__mock/projects/demo/reset" });
    expect((await token(app, DEMO_KEYS)).token).toBe(before.token);
  });

  it("a project created with its own seed makes the same id, keys and tokens on any server", async () => {
    const make = async (serverSeed: string | undefined) => {
      const { app } = seededApp(serverSeed === undefined ? {} : { seed: serverSeed });
      const created = await control(app, {
        method: "POST",
        path: "/__mock/projects",
        body: { template: "demo", seed: "job-42" },
      });
      expect(created.status).toBe(201);
      const keys = { "X-App-Id": created.body.app_id, "X-App-Token": created.body.app_token };
      return { project: created.body.project_id, keys, token: await token(app, keys) };
    };
    const first = await make(undefined);
    expect(first.project).toMatch(/^proj-[0-9a-f]{12}$/);
    expect(await make("something else")).toEqual(first);
  });

  it("a posted document's project.seed seeds its generated id and keys", async () => {
    const post = async () => {
      const { app } = seededApp();
      const res = await control(app, {
        method: "POST",
        path: "/__mock/projects",
        body: { project: { seed: "doc-seed" } },
      });
      expect(res.status).toBe(201);
      return [res.body.project_id, res.body.app_id, res.body.app_token];
    };
    const first = await post();
    expect(await post()).toEqual(first);
    expect(first[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("without any seed, two servers make different ids", async () => {
    const [a, b] = [seededApp(), seededApp()];
    expect((await token(a.app, DEMO_KEYS)).token).not.toBe((await token(b.app, DEMO_KEYS)).token);
  });
});
