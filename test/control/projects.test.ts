import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COLLECTION_NAMES } from "../../src/domain/projects/project-document.js";
import { VERSION } from "../../src/http/control/version.js";
import { createApp, createRegistry, ManualClock } from "../../src/index.js";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, defaultDocuments, tokenRecord, worldWith } from "../helpers/world.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function locationWith(app: Parameters<typeof send>[0], keys: Record<string, string>, id = "loc_demo_circle") {
  return send(app, { method: "GET", path: `/v1/locations/${id}`, headers: keys });
}

describe("GET /__mock/health", () => {
  it("is ok with the version, uptime and project count", async () => {
    const { app } = buildWorld();
    const res = await control(app, { method: "GET", path: "/__mock/health" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "ok",
      version: VERSION,
      uptime_s: expect.any(Number),
      projects: 2,
      control: "open",
    });
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(VERSION).toBe(pkg.version);
  });
});

describe("POST /__mock/projects", () => {
  it("copies a template's data under a fresh id and fresh keys, which work at once", async () => {
    const { app, registry } = buildWorld();
    const res = await control(app, { method: "POST", path: "/__mock/projects", body: { template: "demo" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: "project",
      project_id: expect.stringMatching(/^proj-[0-9a-f]{12}$/),
      name: "Demo project",
      app_id: expect.stringMatching(UUID),
      app_token: expect.stringMatching(UUID),
      template: "demo",
      now: "2026-11-20T10:00:00.000Z",
    });
    expect(res.body.api_keys.map((key: { name: string }) => key.name)).toEqual([
      "Demo server-side key",
      "Demo read-only key (locations only)",
    ]);
    // The read-only key keeps its permissions; its credentials are new.
    expect(res.body.api_keys[1]).toMatchObject({
      permissions: ["locations"],
      app_id: expect.stringMatching(UUID),
    });
    const keys = { "X-App-Id": res.body.app_id, "X-App-Token": res.body.app_token };
    expect((await locationWith(app, keys)).status).toBe(200);
    expect(registry.get(res.body.project_id).vouchers.size).toBe(registry.get("demo").vouchers.size);
    // The template keeps its own keys.
    expect((await locationWith(app, DEMO_KEYS)).status).toBe(200);
  });

  it("copies the template's fixtures, not what tests have since done to it", async () => {
    const { app, registry } = buildWorld();
    registry.get("demo").locations.delete("loc_demo_circle");
    const res = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: { template: "demo", project_id: "job-42", name: "CI job 42" },
    });
    expect(res.body).toMatchObject({ project_id: "job-42", name: "CI job 42" });
    const keys = { "X-App-Id": res.body.app_id, "X-App-Token": res.body.app_token };
    expect((await locationWith(app, keys)).status).toBe(200);
  });

  it("takes a document in the fixture format and generates what it leaves out", async () => {
    const { app } = buildWorld();
    const body = {
      locations: [
        {
          id: "loc_shop",
          name: "Shop",
          shape: { type: "circle", format: "distance", distance: { center: "geo:1,2", radius: "1 km" } },
          created_at: "2026-01-01T00:00:00.000Z",
        },
      ],
    };
    const res = await control(app, { method: "POST", path: "/__mock/projects", body });
    expect(res.status).toBe(201);
    expect(res.body.api_keys).toHaveLength(1);
    expect(res.body.template).toBeNull();
    const keys = { "X-App-Id": res.body.app_id, "X-App-Token": res.body.app_token };
    expect((await locationWith(app, keys, "loc_shop")).body.name).toBe("Shop");
    expect((await locationWith(app, keys, "loc_demo_circle")).status).toBe(404);
  });

  it("keeps the ids and keys a document gives, filling in only missing secrets", async () => {
    const { app } = buildWorld();
    const res = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: {
        project: { id: "mine", name: "Mine" },
        api_keys: [{ app_id: "mine-app" }, { app_id: "mine-2", app_token: "s" }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ project_id: "mine", name: "Mine", app_id: "mine-app" });
    expect(res.body.app_token).toMatch(UUID);
    expect(res.body.api_keys[1]).toMatchObject({ app_id: "mine-2", app_token: "s" });
  });

  it("two projects made from one template never share credentials", async () => {
    const { app } = buildWorld();
    const a = await control(app, { method: "POST", path: "/__mock/projects", body: { template: "demo" } });
    const b = await control(app, { method: "POST", path: "/__mock/projects", body: { template: "demo" } });
    expect(a.body.project_id).not.toBe(b.body.project_id);
    expect(a.body.app_id).not.toBe(b.body.app_id);
    expect(a.body.api_keys[0].client_id).not.toBe(b.body.api_keys[0].client_id);
  });

  const badBodies = [
    { name: "an array", body: [], status: 400, details: "Request body should be object" },
    { name: "a bare JSON string", body: '"demo"', status: 400, details: /^Request body is not valid JSON/ },
    { name: "malformed JSON", body: '{"template":', status: 400, details: /^Request body is not valid JSON/ },
    {
      name: "an unknown template",
      body: { template: "nope" },
      status: 404,
      details: "Cannot find project with id nope",
    },
    {
      name: "a template with an unknown field",
      body: { template: "demo", keys: 1 },
      status: 400,
      details: "Property .keys is not allowed",
    },
    {
      name: "a bad project id",
      body: { template: "demo", project_id: "Bad Id" },
      status: 400,
      details: /^Property \.project_id/,
    },
    {
      name: "an existing project id",
      body: { template: "demo", project_id: "other" },
      status: 409,
      details: "A project with id other exists already",
    },
    {
      name: "an app id of another project",
      body: { api_keys: [{ app_id: "demo-app-id" }] },
      status: 409,
      details: "App id demo-app-id is used by another project",
    },
    {
      name: "an unknown collection",
      body: { widgets: [] },
      status: 400,
      details: "Property .widgets is not allowed",
    },
    {
      name: "a broken record",
      body: { locations: [{ id: "loc_x" }] },
      status: 400,
      details: "Property .locations[0].name is required",
    },
    {
      name: "a dangling reference",
      body: {
        events: [
          { id: "evcus_1", type: "x", customer_id: "cust_none", created_at: "2026-01-01T00:00:00.000Z" },
        ],
      },
      status: 400,
      details: "Property .events[0].customer_id no customer with id cust_none in this project",
    },
  ];
  for (const { name, body, status, details } of badBodies) {
    it(`refuses ${name} (${status}) and creates nothing`, async () => {
      const { app, registry } = buildWorld();
      const res = await control(app, {
        method: "POST",
        path: "/__mock/projects",
        body,
        headers: typeof body === "string" ? { "Content-Type": "application/json" } : {},
      });
      expectError(res, status, { details });
      expect(registry.list().map((project) => project.id)).toEqual(["demo", "other"]);
    });
  }

  it("refuses a body that is not JSON with 415", async () => {
    const { app } = buildWorld();
    const res = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: "template=demo",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expectError(res, 415, { key: "unsupported_media_type" });
  });
});

it("a posted document may not reuse another project's access token", async () => {
  const { app, registry } = buildWorld();
  const token = await send(app, {
    method: "POST",
    path: "/v1/oauth/token",
    headers: DEMO_KEYS,
    form: true,
    body: "grant_type=client_credentials&scope=api",
  });
  const stolen = tokenRecord(String(token.body.access_token));
  const res = await control(app, { method: "POST", path: "/__mock/projects", body: { tokens: [stolen] } });
  expectError(res, 409, { details: "An access token of the document belongs to another project" });
  expect(registry.list()).toHaveLength(2);
  const location = await send(app, {
    method: "GET",
    path: "/v1/locations/loc_demo_circle",
    headers: { Authorization: `Bearer ${token.body.access_token}` },
  });
  expect(location.status).toBe(200);
});

it("a body over the size limit is 413 and creates nothing", async () => {
  const { app, registry } = buildWorld({ bodyLimit: 1024 });
  const res = await control(app, {
    method: "POST",
    path: "/__mock/projects",
    body: { project: { name: "x".repeat(2000) } },
  });
  expectError(res, 413, { key: "query_too_large" });
  expect(registry.list()).toHaveLength(2);
});

/** What a posted document or a template copy is given when it names no key, and the shapes refused before. */
describe("POST /__mock/projects - what is filled in, and what is refused", () => {
  const namesOf = (res: { body: { api_keys: { name: string }[] } }) =>
    res.body.api_keys.map((key) => key.name);

  it("a posted document with an empty list of keys gets one key, named Generated key, which works", async () => {
    const { app } = buildWorld();
    const res = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: { project: { id: "keyless" }, api_keys: [] },
    });
    expect(res.status).toBe(201);
    expect(namesOf(res)).toEqual(["Generated key"]);
    const keys = { "X-App-Id": res.body.app_id, "X-App-Token": res.body.app_token };
    expect(res.body.app_id).toMatch(UUID);
    expect((await locationWith(app, keys)).status).toBe(404);
  });

  it("a copy of a template that has no key gets one key, named Generated key, which works", async () => {
    const { app } = worldWith({ project: { id: "keyless" } });
    const res = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: { template: "keyless", project_id: "copy" },
    });
    expect(res.status).toBe(201);
    expect(namesOf(res)).toEqual(["Generated key"]);
    expect(res.body.app_id).toMatch(UUID);
    const keys = { "X-App-Id": res.body.app_id, "X-App-Token": res.body.app_token };
    expect((await locationWith(app, keys)).status).toBe(404);
  });

  it("a copy keeps the template's own seed when the request names none, and takes the request's when it does", async () => {
    const { app } = worldWith({ project: { id: "seeded", seed: "template-seed" } });
    const seedOf = async (body: Record<string, unknown>) => {
      const made = await control(app, { method: "POST", path: "/__mock/projects", body });
      expect(made.status).toBe(201);
      const state = await control(app, {
        method: "GET",
        path: `/__mock/projects/${made.body.project_id}/state`,
      });
      return state.body.project.seed;
    };
    expect(await seedOf({ template: "seeded" })).toBe("template-seed");
    expect(await seedOf({ template: "seeded", seed: "request-seed" })).toBe("request-seed");
  });

  const refused = [
    {
      name: "a project that is null",
      body: { project: null },
      details: "Property .project should be object",
    },
    {
      name: "a key that is null",
      body: { api_keys: [null] },
      details: "Property .api_keys[0] should be object",
    },
    {
      name: "a seed that is a list",
      body: { project: { seed: ["a"] } },
      details: "Property .project.seed should be string",
    },
    {
      name: "a seed that is an object with a length",
      body: { project: { seed: { length: 1 } } },
      details: "Property .project.seed should be string",
    },
  ];
  for (const { name, body, details } of refused) {
    it(`refuses ${name} with 400 and creates nothing`, async () => {
      const { app, registry } = buildWorld();
      const res = await control(app, { method: "POST", path: "/__mock/projects", body });
      expectError(res, 400, { key: "invalid_payload", details });
      expect(registry.list().map((project) => project.id)).toEqual(["demo", "other"]);
    });
  }
});

/** The access token index (app ids and tokens are the only state projects share): what leaves it, and when. */
describe("an access token that leaves a project", () => {
  const issue = async (app: Parameters<typeof send>[0]) => {
    const res = await send(app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      form: true,
      body: "grant_type=client_credentials&scope=api",
    });
    expect(res.status).toBe(200);
    return res.body.access_token as string;
  };
  const recordOf = async (app: Parameters<typeof send>[0], accessToken: string) => {
    const state = await control(app, { method: "GET", path: "/__mock/projects/demo/state" });
    const record = state.body.tokens.find((t: { access_token: string }) => t.access_token === accessToken);
    expect(record).toBeDefined();
    return record;
  };

  it("dropped as expired when the token cap needs room, may be posted in another project's document", async () => {
    const { app, clock, registry } = buildWorld({ defaults: { tokenLimit: 1 } });
    const expired = await issue(app);
    const record = await recordOf(app, expired);
    clock.advance(16 * 60 * 1000);
    await issue(app);
    expect(
      registry
        .get("demo")
        .tokens.list()
        .map((t) => t.accessToken),
    ).not.toContain(expired);
    const res = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: { project: { id: "later" }, tokens: [record] },
    });
    expect(res.status).toBe(201);
    expect(registry.projectForToken(expired)?.id).toBe("later");
  });

  it("taken by another project after a reset is not drawn again by the seeded one, and goes with its holder", async () => {
    const registry = createRegistry({
      clock: new ManualClock(),
      documents: defaultDocuments(),
      seed: "tokens",
    });
    const app = createApp({ registry });
    const first = await issue(app);
    const record = await recordOf(app, first);
    expect((await control(app, { method: "POST", path: "/__mock/projects/demo/reset" })).status).toBe(200);
    const holder = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: { project: { id: "holder" }, tokens: [record] },
    });
    expect(holder.status).toBe(201);
    // The reset started demo's stream again; it draws past the token the holder has now.
    const again = await issue(app);
    expect(again).not.toBe(first);
    expect(registry.projectForToken(first)?.id).toBe("holder");
    expect(registry.projectForToken(again)?.id).toBe("demo");
    expect((await control(app, { method: "DELETE", path: "/__mock/projects/holder" })).status).toBe(200);
    expect(registry.projectForToken(first)).toBeUndefined();
    expect(registry.projectForToken(again)?.id).toBe("demo");
    const location = await locationWith(app, { Authorization: `Bearer ${again}` });
    expect(location.status).toBe(200);
  });
});

describe("GET /__mock/projects/{projectId}", () => {
  it("counts every collection the project holds, from the one list of collections, then requests and faults", async () => {
    const world = buildWorld();
    const res = await control(world.app, { method: "GET", path: "/__mock/projects/demo" });
    expect(res.status).toBe(200);
    const counts = res.body.counts as Record<string, number>;
    expect(Object.keys(counts)).toEqual([...COLLECTION_NAMES, "requests", "faults"]);
    expect(counts.vouchers).toBe(world.demo.vouchers.size);
    expect(counts.event_schemas).toBe(world.demo.eventSchemas.size);
  });
});
