import request from "supertest";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/index.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, type World } from "../helpers/world.js";

const STATE = "/__mock/projects/demo/state";

function getState(world: World, path = STATE) {
  return request(world.app).get(path);
}

function putState(world: World, body: unknown, path = STATE) {
  return send(world.app, { method: "PUT", path, body });
}

async function issueToken(world: World): Promise<string> {
  const res = await send(world.app, {
    method: "POST",
    path: "/v1/oauth/token",
    headers: DEMO_KEYS,
    form: true,
    body: "grant_type=client_credentials&scope=api",
  });
  expect(res.status).toBe(200);
  return res.body.access_token;
}

describe("GET /__mock/projects/{projectId}/state", () => {
  it("exports the project in the fixture format, with what the operations changed", async () => {
    const world = buildWorld();
    const token = await issueToken(world);
    const res = await getState(world);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["x-request-id"]).toMatch(/^v-[0-9a-f]{18}$/);
    expect(res.body.project).toEqual({
      id: "demo",
      name: "Demo project",
      // The demo's fixtures name the tier structure its audience sees (issue 45).
      settings: { audience_tier_structures: ["lts_d0000000000000001"] },
      clock: { offset_ms: 0 },
    });
    expect(res.body.tokens.map((t: { access_token: string }) => t.access_token)).toEqual([token]);
    expect(res.body.locations.map((l: { id: string }) => l.id)).toContain("loc_demo_circle");
    expect(res.body.vouchers).toHaveLength(world.demo.vouchers.size);
  });

  it("is 404 for an unknown project", async () => {
    const world = buildWorld();
    const res = await send(world.app, { method: "GET", path: "/__mock/projects/nope/state" });
    expectError(res, 404, {
      key: "not_found",
      message: "Resource not found",
      details: "Cannot find project with id nope",
      resource_id: "nope",
      resource_type: "project",
    });
  });

  it("is 405 for a method the path does not serve", async () => {
    const world = buildWorld();
    const res = await send(world.app, { method: "POST", path: STATE, body: {} });
    expectError(res, 405, { message: "HTTP Method Not Allowed" });
    expect(res.headers.allow).toBe("GET, HEAD, PUT");
  });
});

describe("PUT /__mock/projects/{projectId}/state", () => {
  it("replaces the state: the operations see the new data at once, GET gives the same back", async () => {
    const world = buildWorld();
    const document = (await getState(world)).body;
    document.locations.push({
      id: "loc_imported",
      name: "Imported",
      shape: { type: "circle", format: "distance", distance: { center: "geo:1,2", radius: "3 km" } },
      created_at: "2026-01-01T00:00:00.000Z",
    });
    document.locations = document.locations.filter((l: { id: string }) => l.id !== "loc_demo_circle");

    const put = await request(world.app).put(STATE).send(document);
    expect(put.status).toBe(200);
    expect(put.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(put.body.locations.at(-1)).toEqual({
      ...document.locations.at(-1),
      object: "location",
      updated_at: null,
    });
    expect((await getState(world)).body).toEqual(put.body);

    const imported = await send(world.app, {
      method: "GET",
      path: "/v1/locations/loc_imported",
      headers: DEMO_KEYS,
    });
    expect(imported.status).toBe(200);
    const gone = await send(world.app, {
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      headers: DEMO_KEYS,
    });
    expectError(gone, 404, { details: "Cannot find location with id loc_demo_circle" });
  });

  it("moves the project's clock with the document: tokens expire on it", async () => {
    const world = buildWorld();
    const token = await issueToken(world);
    const document = (await getState(world)).body;
    document.project.clock = { offset_ms: 900_000 };
    expect((await request(world.app).put(STATE).send(document)).status).toBe(200);
    const res = await send(world.app, {
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      headers: { Authorization: `Bearer ${token}` },
    });
    expectError(res, 401, { key: "unauthorized", details: "The access token has expired" });
  });

  // Each row is refused with the service's error object and leaves the project as it was.
  const BAD: {
    name: string;
    send: (world: World) => Promise<request.Response>;
    status: number;
    error: Record<string, unknown>;
  }[] = [
    {
      name: "a document that breaks the fixture format",
      send: async (world) => {
        const document = (await getState(world)).body;
        delete document.locations[0].name;
        return putState(world, document);
      },
      status: 400,
      error: {
        key: "invalid_payload",
        message: "Invalid payload",
        details: "$.locations[0].name: is required",
      },
    },
    {
      name: "a reference to nothing",
      send: (world) =>
        putState(world, {
          project: { id: "demo" },
          vouchers: [
            {
              id: "v_x",
              code: "X",
              campaign_id: "camp_nope",
              type: "LOYALTY_CARD",
              created_at: "2026-01-01T00:00:00.000Z",
            },
          ],
        }),
      status: 400,
      error: {
        key: "invalid_payload",
        details: "$.vouchers[0].campaign_id: no campaign with id camp_nope in this project",
      },
    },
    {
      // JSON can write an object with no value to compare: the int64 field refuses it, no range check meets it.
      name: "a tier's points that are an object with no value",
      send: async (world) => {
        const document = (await getState(world)).body;
        document.tier_structures[0].tiers[0].qualification_rules.min_value = { valueOf: 1, toString: 1 };
        return putState(world, document);
      },
      status: 400,
      error: {
        key: "invalid_payload",
        details: "$.tier_structures[0].tiers[0].qualification_rules.min_value: should be number",
      },
    },
    {
      name: "no body",
      send: (world) => putState(world, undefined),
      status: 400,
      error: { key: "invalid_payload", details: "$: should be object" },
    },
    {
      name: "malformed JSON",
      send: (world) =>
        send(world.app, {
          method: "PUT",
          path: STATE,
          headers: { "Content-Type": "application/json" },
          body: "{",
        }),
      status: 400,
      error: { key: "invalid_payload", details: expect.stringMatching(/^Request body is not valid JSON/) },
    },
    {
      name: "another content type",
      send: (world) =>
        send(world.app, {
          method: "PUT",
          path: STATE,
          headers: { "Content-Type": "text/plain" },
          body: "{}",
        }),
      status: 415,
      error: { key: "unsupported_media_type" },
    },
    {
      name: "a document of another project",
      send: (world) => putState(world, { project: { id: "other" } }),
      status: 400,
      error: { key: "invalid_payload", details: "$.project.id: should be demo, the project being replaced" },
    },
    {
      name: "an app id of another project",
      send: (world) =>
        putState(world, { project: { id: "demo" }, api_keys: [{ app_id: "other-app-id", app_token: "t" }] }),
      status: 409,
      error: { key: "conflict", details: "App id other-app-id is used by another project" },
    },
    {
      name: "an unknown project",
      send: (world) => putState(world, { project: { id: "nope" } }, "/__mock/projects/nope/state"),
      status: 404,
      error: { key: "not_found", details: "Cannot find project with id nope", resource_type: "project" },
    },
  ];

  for (const row of BAD)
    it(`refuses ${row.name} with ${row.status} and changes nothing`, async () => {
      const world = buildWorld();
      const token = await issueToken(world);
      const before = (await getState(world)).body;
      const res = await row.send(world);
      expect(res.status).toBe(row.status);
      expect(res.body).toMatchObject({ code: row.status, ...row.error });
      expect((await getState(world)).body).toEqual(before);
      const location = await send(world.app, {
        method: "GET",
        path: "/v1/locations/loc_demo_circle",
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(location.status).toBe(200);
    });

  it("refuses a document over the state body limit with 413", async () => {
    const world = buildWorld();
    const app = createApp({ registry: world.registry, stateBodyLimit: 1000 });
    const document = (await request(app).get(STATE)).body;
    const res = await send(app, { method: "PUT", path: STATE, body: document });
    expectError(res, 413, {
      key: "query_too_large",
      details: "Request body exceeds the limit of 1000 bytes",
    });
    expect(world.registry.get("demo")).toBe(world.demo);
  });

  it("takes documents far larger than the operations' body limit", async () => {
    const world = buildWorld({ bodyLimit: 1000 });
    const document = (await getState(world)).body;
    const res = await request(world.app).put(STATE).send(document);
    expect(res.status).toBe(200);
  });
});
