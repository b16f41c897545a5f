import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, OTHER_KEYS } from "../helpers/world.js";

type App = Parameters<typeof send>[0];

function addFault(app: App, body: unknown, project = "demo") {
  return control(app, { method: "POST", path: `/__mock/projects/${project}/faults`, body });
}

function location(app: App, headers: Record<string, string> = DEMO_KEYS, id = "loc_demo_circle") {
  return send(app, { method: "GET", path: `/v1/locations/${id}`, headers });
}

describe("fault rules over supertest", () => {
  it("action error answers with the status and the service's error object, for the next N matches", async () => {
    const { app } = buildWorld();
    const res = await addFault(app, {
      method: "get",
      path: "/v1/locations/{locationId}",
      action: "error",
      status: 503,
      times: 2,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: "fault",
      id: expect.stringMatching(/^flt_[0-9a-f]{18}$/),
      method: "GET",
      action: "error",
      status: 503,
      error: { key: "service_unavailable", message: "Service Unavailable" },
      times: 2,
      remaining: 2,
      matched: 0,
      created_at: "2026-11-20T10:00:00.000Z",
    });
    for (let i = 0; i < 2; i++)
      expectError(await location(app), 503, { key: "service_unavailable", message: "Service Unavailable" });
    expect((await location(app)).status).toBe(200);
    expect((await control(app, { method: "GET", path: "/__mock/projects/demo/faults" })).body.total).toBe(0);
  });

  it("a custom error object and headers; the operation never runs", async () => {
    const { app, demo } = buildWorld();
    await addFault(app, {
      method: "POST",
      path: "/v1/oauth/token",
      action: "error",
      status: 429,
      error: { key: "too_many_requests", message: "Slow down", details: "Try later" },
      headers: { "Retry-After": "7" },
    });
    const res = await send(app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      form: true,
      body: "grant_type=client_credentials&scope=api",
    });
    expectError(res, 429, { key: "too_many_requests", message: "Slow down", details: "Try later" });
    expect(res.headers["retry-after"]).toBe("7");
    expect(demo.tokens.size).toBe(0);
  });

  it("without times a rule stays until deleted; GET shows its count", async () => {
    const { app } = buildWorld();
    const { body: fault } = await addFault(app, { path: "/v1/**", action: "error", status: 500 });
    for (let i = 0; i < 3; i++) expect((await location(app)).status).toBe(500);
    const read = await control(app, { method: "GET", path: `/__mock/projects/demo/faults/${fault.id}` });
    expect(read.body).toMatchObject({ matched: 3, remaining: null, times: null });
    const deleted = await control(app, {
      method: "DELETE",
      path: `/__mock/projects/demo/faults/${fault.id}`,
    });
    expect(deleted.body).toEqual({ object: "fault", id: fault.id, deleted: true });
    expect((await location(app)).status).toBe(200);
  });

  it("matches method and path: exact, {param}, *, **; the first matching rule wins", async () => {
    const { app } = buildWorld();
    await addFault(app, { method: "POST", path: "/v1/locations/{id}", action: "error", status: 502 });
    await addFault(app, { path: "/v1/locations/loc_demo_c*", action: "error", status: 503 });
    await addFault(app, { path: "/v1/locations/loc_demo_polygon", action: "error", status: 504 });
    await addFault(app, { method: "GET", path: "/v1/**", action: "error", status: 500 });
    expect((await location(app)).status).toBe(503);
    expect((await location(app, DEMO_KEYS, "loc_demo_polygon")).status).toBe(504);
    expect((await location(app, DEMO_KEYS, "loc_demo_multipolygon")).status).toBe(500);
  });

  it("applies only to requests of its own project", async () => {
    const { app } = buildWorld();
    await addFault(app, { path: "/v1/**", action: "error", status: 503 });
    expect((await location(app, OTHER_KEYS, "loc_other_circle")).status).toBe(200);
    expect((await location(app)).status).toBe(503);
  });

  it("DELETE .../faults clears every rule; the journal says which rule hit", async () => {
    const { app } = buildWorld();
    const { body: fault } = await addFault(app, { path: "/v1/**", action: "error", status: 503 });
    await addFault(app, { path: "/v2/**", action: "drop" });
    await location(app);
    const cleared = await control(app, { method: "DELETE", path: "/__mock/projects/demo/faults" });
    expect(cleared.body).toEqual({ object: "faults", deleted: 2 });
    expect((await location(app)).status).toBe(200);
    const journal = await control(app, { method: "GET", path: "/__mock/projects/demo/requests" });
    expect(journal.body.requests.map((e: { fault: unknown }) => e.fault)).toEqual([
      { id: fault.id, action: "error" },
      null,
    ]);
  });

  const bad = [
    { body: { action: "error", status: 503 }, details: "Property .path is required" },
    { body: { path: "v1/events", action: "drop" }, details: 'Property .path should match pattern "^\\/"' },
    { body: { path: "/v1/{id", action: "drop" }, details: "Property .path has a { without its }" },
    { body: { path: "/v1?x=1", action: "drop" }, details: "Property .path must not contain a query string" },
    {
      body: { path: "/x", action: "explode" },
      details: "Property .action should be equal to one of the allowed values: error, delay, drop, truncate",
    },
    { body: { path: "/x", action: "error" }, details: "Property .status is required when action is error" },
    { body: { path: "/x", action: "error", status: 302 }, details: "Property .status should be >= 400" },
    {
      body: { path: "/x", action: "drop", status: 500 },
      details: "Property .status is only allowed when action is error",
    },
    {
      body: { path: "/x", action: "delay" },
      details: "Property .latency_ms should be > 0 when action is delay",
    },
    {
      body: { path: "/x", action: "delay", latency_ms: 600_000 },
      details: "Property .latency_ms should be <= 120000",
    },
    { body: { path: "/x", action: "drop", times: 0 }, details: "Property .times should be >= 1" },
    {
      body: { path: "/x", action: "drop", method: "GE T" },
      details: 'Property .method should match pattern "^([A-Za-z]+|\\*)$"',
    },
    {
      body: { path: "/x", action: "error", status: 500, headers: { "Bad Header": "x" } },
      details: /^Property \.headers/,
    },
    { body: { path: "/x", action: "drop", when: "now" }, details: "Property .when is not allowed" },
  ];
  for (const { body, details } of bad) {
    it(`POST ${JSON.stringify(body)} is 400 and adds no rule`, async () => {
      const { app, demo } = buildWorld();
      expectError(await addFault(app, body), 400, { key: "invalid_payload", details });
      expect(demo.faults.list()).toEqual([]);
    });
  }

  it("404 for an unknown project or rule", async () => {
    const { app } = buildWorld();
    expectError(await addFault(app, { path: "/x", action: "drop" }, "nope"), 404, {
      resource_type: "project",
    });
    expectError(await control(app, { method: "DELETE", path: "/__mock/projects/demo/faults/flt_00" }), 404, {
      resource_type: "fault",
      resource_id: "flt_00",
    });
    expectError(await control(app, { method: "GET", path: "/__mock/projects/demo/faults/flt_00" }), 404, {});
  });
});
