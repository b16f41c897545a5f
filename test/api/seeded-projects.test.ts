import request from "supertest";
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
  it("a control call draws from the server's stream however its prefix is spelled, credentials or not", async () => {
    const quiet = seededApp({ seed: "per-project" });
    const busy = seededApp({ seed: "per-project" });
    // Express routes /__MOCK as /__mock: the request id must be the control call's too, not the demo's.
    const listed = await request(busy.app).get("/__MOCK/projects").set(DEMO_KEYS);
    expect(listed.status).toBe(200);
    expect(await token(busy.app, DEMO_KEYS)).toEqual(await token(quiet.app, DEMO_KEYS));
  });

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

/**
 * A seed's values are part of what a suite records (an id in a snapshot, a code in a fixture of its own): they stay
 * the same from release to release, so these are pinned. Each stream has its name: the server's, a created
 * project's, a project's own.
 */
describe("a seed's values are pinned", () => {
  it("the server's stream makes a template copy's id when the request has no seed", async () => {
    const { app } = seededApp({ seed: "pinned" });
    const made = await control(app, { method: "POST", path: "/__mock/projects", body: { template: "demo" } });
    expect(made.body.project_id).toBe("proj-071abc295a03");
  });

  it("a request's seed makes the copy's id, whatever the server's seed", async () => {
    const { app } = seededApp({ seed: "pinned" });
    const made = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: { template: "demo", seed: "job-42" },
    });
    expect(made.body.project_id).toBe("proj-3a04e626c842");
  });

  it("a loaded project's stream makes its first token", async () => {
    const { app } = seededApp({ seed: "pinned" });
    expect((await token(app, DEMO_KEYS)).token).toBe("vErFRar-G9hLxVb0FI7ePqFw5eqFw61YGQx1bUEcFVE");
  });

  // An empty seed is no seed: the document is refused (seed is 1-200 characters) after drawing, like any other
  // refused document, from the server's stream; a non-empty one, even too long, draws from its own.
  it("a document refused for an empty seed draws as one refused for a seed not a string", async () => {
    const next = async (seed: unknown) => {
      const { app } = seededApp({ seed: "refused" });
      const res = await control(app, {
        method: "POST",
        path: "/__mock/projects",
        body: { project: { seed } },
      });
      expect(res.status).toBe(400);
      return (await control(app, { method: "POST", path: "/__mock/projects", body: { template: "demo" } }))
        .body.project_id;
    };
    const afterNumber = await next(5);
    expect(await next("")).toBe(afterNumber);
    expect(await next(["a"])).toBe(afterNumber);
  });
});

describe("a seeded token another project took in meanwhile", () => {
  it("is not issued again: the stream draws past it, and the holder keeps it", async () => {
    const { app } = seededApp({ seed: "collide" });
    const first = (await token(app, DEMO_KEYS)).token;
    await control(app, { method: "POST", path: "/__mock/projects/demo/reset" });
    // `other` takes the token the reset freed, as a suite copying a recorded state between projects would: its own
    // token, with the freed one's value.
    await token(app, OTHER_KEYS);
    const state = (await control(app, { method: "GET", path: "/__mock/projects/other/state" })).body;
    expect(state.tokens).toHaveLength(1);
    state.tokens[0].access_token = first;
    const put = await control(app, { method: "PUT", path: "/__mock/projects/other/state", body: state });
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    const again = (await token(app, DEMO_KEYS)).token;
    expect(again).not.toBe(first);
    const bearer = (accessToken: string) => ({ Authorization: `Bearer ${accessToken}` });
    const demoLocation = "/v1/locations/loc_demo_circle";
    expect((await send(app, { method: "GET", path: demoLocation, headers: bearer(again) })).status).toBe(200);
    // The copied token still opens `other` only: the demo's location is not there.
    const other = await send(app, { method: "GET", path: demoLocation, headers: bearer(first) });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ key: "not_found", resource_type: "location" });
  });
});
