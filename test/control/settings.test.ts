import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, OTHER_KEYS } from "../helpers/world.js";

type App = Parameters<typeof send>[0];

function settings(app: App, method: "GET" | "PUT" | "PATCH", body?: unknown, project = "demo") {
  return control(app, { method, path: `/__mock/projects/${project}/settings`, body });
}

function location(app: App, headers: Record<string, string> = DEMO_KEYS, id = "loc_demo_circle") {
  return send(app, { method: "GET", path: `/v1/locations/${id}`, headers });
}

describe("/__mock/projects/{id}/settings", () => {
  it("GET shows the project's own settings and those in force", async () => {
    const { app } = buildWorld({ defaults: { tokenGraceSeconds: 30 } });
    const res = await settings(app, "GET");
    expect(res.body).toEqual({
      object: "settings",
      project_id: "demo",
      // The demo's fixtures name the tier structure its audience sees (issue 45).
      settings: { audience_tier_structures: ["lts_d0000000000000001"] },
      // Issue 15: a project without its own limit has the server's (RATE_LIMIT_PER_MINUTE, 2000 a minute).
      effective: {
        v2_auth_mode: "strict",
        token_grace_seconds: 30,
        rate_limit: { limit: 2000, window_seconds: 60 },
        journal_size: 1000,
      },
      rate_limit_window: null,
    });
  });

  it("PUT replaces them; PATCH changes the fields given, null back to the server's default", async () => {
    const { app } = buildWorld();
    const put = await settings(app, "PUT", { v2_auth_mode: "either", token_grace_seconds: 5 });
    expect(put.body.settings).toEqual({ v2_auth_mode: "either", token_grace_seconds: 5 });
    const patched = await settings(app, "PATCH", { token_grace_seconds: null, rate_limit: { limit: 10 } });
    expect(patched.body.settings).toEqual({
      v2_auth_mode: "either",
      rate_limit: { limit: 10, window_seconds: 3600 },
    });
    expect(patched.body.effective).toMatchObject({
      token_grace_seconds: 60,
      rate_limit: { limit: 10, window_seconds: 3600 },
    });
    const replaced = await settings(app, "PUT", {});
    expect(replaced.body.settings).toEqual({});
  });

  it("v2_auth_mode is what authentication reads for the project", async () => {
    const { app, demo, other, registry } = buildWorld();
    const res = await settings(app, "PATCH", { v2_auth_mode: "either" });
    expect(res.body.effective.v2_auth_mode).toBe("either");
    expect(demo.effectiveSettings(registry.defaults).v2AuthMode).toBe("either");
    expect(other.effectiveSettings(registry.defaults).v2AuthMode).toBe("strict");
  });

  const bad = [
    {
      method: "PUT",
      body: { v2_auth_mode: "loose" },
      details: "Property .v2_auth_mode should be equal to one of the allowed values: strict, either",
    },
    {
      method: "PUT",
      body: { token_grace_seconds: -1 },
      details: "Property .token_grace_seconds should be >= 0",
    },
    {
      method: "PUT",
      body: { rate_limit: { limit: 0 } },
      details: "Property .rate_limit.limit should be >= 1",
    },
    {
      method: "PUT",
      body: { rate_limit: { limit: 5, window_seconds: 1.5 } },
      details: "Property .rate_limit.window_seconds should be integer",
    },
    { method: "PUT", body: { journal_size: 100_001 }, details: "Property .journal_size should be <= 100000" },
    { method: "PUT", body: { rate_limits: {} }, details: "Property .rate_limits is not allowed" },
    {
      method: "PATCH",
      body: { rate_limit: { per: "hour" } },
      details: "Property .rate_limit.limit is required",
    },
    { method: "PATCH", body: [], details: "Request body should be object" },
  ] as const;
  for (const { method, body, details } of bad) {
    it(`${method} ${JSON.stringify(body)} is 400 and changes nothing`, async () => {
      const { app, demo } = buildWorld();
      await settings(app, "PUT", { token_grace_seconds: 7 });
      expectError(await settings(app, method, body), 400, { key: "invalid_payload", details });
      expect(demo.settings).toEqual({ token_grace_seconds: 7 });
    });
  }

  it("404 for an unknown project", async () => {
    const { app } = buildWorld();
    expectError(await settings(app, "GET", undefined, "nope"), 404, { resource_type: "project" });
    expectError(await settings(app, "PUT", {}, "nope"), 404, { resource_type: "project" });
  });
});

describe("rate limiting", () => {
  it("every answer carries X-Rate-Limit-Limit and -Remaining; past the limit 429 with Retry-After", async () => {
    const { app } = buildWorld();
    await settings(app, "PATCH", { rate_limit: { limit: 3, window_seconds: 60 } });
    const remaining: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await location(app);
      expect(res.status).toBe(200);
      expect(res.headers["x-rate-limit-limit"]).toBe("3");
      remaining.push(res.headers["x-rate-limit-remaining"]);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await location(app);
    expectError(refused, 429, {
      key: "api_limit_reached",
      message: "API limit reached",
      details: "The project may make 3 API requests per 60 s; retry in 60 s",
    });
    expect(refused.headers).toMatchObject({
      "x-rate-limit-limit": "3",
      "x-rate-limit-remaining": "0",
      "retry-after": "60",
      "x-rate-limit-retry": String(Date.parse("2026-11-20T10:01:00.000Z") / 1000),
      "x-rate-limit-type": "api_calls",
    });
  });

  it("windows run on the project's clock: moving it past the window lets requests in again", async () => {
    const { app } = buildWorld();
    await settings(app, "PATCH", { rate_limit: { limit: 1, window_seconds: 60 } });
    expect((await location(app)).status).toBe(200);
    await control(app, {
      method: "POST",
      path: "/__mock/projects/demo/clock",
      body: { advance_seconds: 45 },
    });
    const refused = await location(app);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("15");
    const view = await settings(app, "GET");
    expect(view.body.rate_limit_window).toEqual({
      used: 1,
      remaining: 0,
      resets_at: "2026-11-20T10:01:00.000Z",
    });
    await control(app, {
      method: "POST",
      path: "/__mock/projects/demo/clock",
      body: { advance_seconds: 15 },
    });
    const again = await location(app);
    expect(again.status).toBe(200);
    expect(again.headers["x-rate-limit-remaining"]).toBe("0");
  });

  it("counts every route of the project, tokens included, and refuses before the operation runs", async () => {
    const { app, demo } = buildWorld();
    await settings(app, "PATCH", { rate_limit: { limit: 2 } });
    await send(app, { method: "GET", path: "/v1/nowhere", headers: DEMO_KEYS });
    await location(app);
    const refused = await send(app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      form: true,
      body: "grant_type=client_credentials&scope=api",
    });
    expect(refused.status).toBe(429);
    expect(demo.tokens.size).toBe(0);
    const journal = await control(app, { method: "GET", path: "/__mock/projects/demo/requests?status=429" });
    expect(journal.body.requests[0]).toMatchObject({ path: "/v1/oauth/token", rate_limited: true });
  });

  it("requests that fail authentication are neither counted nor told about the limit", async () => {
    const { app } = buildWorld();
    await settings(app, "PATCH", { rate_limit: { limit: 1 } });
    for (let i = 0; i < 3; i++) {
      const res = await location(app, { "X-App-Id": "demo-app-id", "X-App-Token": "wrong" });
      expect(res.status).toBe(401);
      expect(res.headers["x-rate-limit-limit"]).toBeUndefined();
    }
    expect((await location(app)).status).toBe(200);
  });

  // Issue 15 changed the documented answer: a project without a limit of its own has the server's default.
  it("is per project, and the server's default where a project sets none", async () => {
    const { app } = buildWorld();
    await settings(app, "PATCH", { rate_limit: { limit: 1 } });
    await location(app);
    expect((await location(app)).status).toBe(429);
    const other = await location(app, OTHER_KEYS, "loc_other_circle");
    expect(other.status).toBe(200);
    expect(other.headers["x-rate-limit-limit"]).toBe("2000");
    expect(other.headers["x-rate-limit-remaining"]).toBe("1999");
  });

  it("a project document may bring its own limit, as project.json settings", async () => {
    const { app } = buildWorld();
    const created = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: { project: { settings: { rate_limit: { limit: 1, window_seconds: 5 }, journal_size: 2 } } },
    });
    const keys = { "X-App-Id": created.body.app_id, "X-App-Token": created.body.app_token };
    expect((await location(app, keys, "loc_x")).headers["x-rate-limit-remaining"]).toBe("0");
    expect((await location(app, keys, "loc_x")).status).toBe(429);
    const view = await settings(app, "GET", undefined, created.body.project_id);
    expect(view.body.effective).toMatchObject({
      rate_limit: { limit: 1, window_seconds: 5 },
      journal_size: 2,
    });
  });

  // Issue 15 changed the documented answer: removing the project's limit brings back the server's, not none.
  it("a new limit starts a new window; removing it brings back the server's default", async () => {
    const { app } = buildWorld();
    await settings(app, "PATCH", { rate_limit: { limit: 1 } });
    await location(app);
    expect((await location(app)).status).toBe(429);
    await settings(app, "PATCH", { rate_limit: { limit: 2 } });
    expect((await location(app)).headers["x-rate-limit-remaining"]).toBe("1");
    await settings(app, "PATCH", { rate_limit: null });
    const res = await location(app);
    expect(res.status).toBe(200);
    expect(res.headers["x-rate-limit-limit"]).toBe("2000");
    expect(res.headers["x-rate-limit-remaining"]).toBe("1999");
  });
});
