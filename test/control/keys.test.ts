import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { moveClock, tokenFor, withToken } from "../helpers/control-steps.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, OTHER_KEYS } from "../helpers/world.js";

describe("/__mock/projects/{id}/keys", () => {
  it("lists the project's keys with their secrets", async () => {
    const { app } = buildWorld();
    const res = await control(app, { method: "GET", path: "/__mock/projects/demo/keys" });
    expect(res.body.api_keys.map((key: { app_id: string }) => key.app_id)).toEqual([
      "demo-app-id",
      "demo-readonly-app-id",
    ]);
    expect(res.body.api_keys[0]).toMatchObject({
      object: "api_key",
      app_token: "demo-app-token",
      status: "ACTIVE",
    });
  });

  it("POST creates a key (credentials generated) that works at once; GET shows it", async () => {
    const { app } = buildWorld();
    const res = await control(app, {
      method: "POST",
      path: "/__mock/projects/other/keys",
      body: { name: "CI", permissions: ["locations"] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "CI",
      permissions: ["locations"],
      status: "ACTIVE",
      blocked_at: null,
    });
    const keys = { "X-App-Id": res.body.app_id, "X-App-Token": res.body.app_token };
    const location = await send(app, {
      method: "GET",
      path: "/v1/locations/loc_other_circle",
      headers: keys,
    });
    expect(location.status).toBe(200);
    const read = await control(app, {
      method: "GET",
      path: `/__mock/projects/other/keys/${res.body.app_id}`,
    });
    expect(read.body).toEqual(res.body);
  });

  it("POST keeps given credentials; an app id in use anywhere is 409 and changes nothing", async () => {
    const { app, demo } = buildWorld();
    const made = await control(app, {
      method: "POST",
      path: "/__mock/projects/demo/keys",
      body: { app_id: "ci-app", app_token: "ci-secret" },
    });
    expect(made.body).toMatchObject({ app_id: "ci-app", app_token: "ci-secret" });
    const inUse = [
      { appId: "ci-app", details: "App id ci-app is used by another key" },
      { appId: "demo-app-id", details: "App id demo-app-id is used by another key" },
      { appId: "other-app-id", details: "App id other-app-id is used by another project" },
    ];
    for (const { appId, details } of inUse) {
      const res = await control(app, {
        method: "POST",
        path: "/__mock/projects/demo/keys",
        body: { app_id: appId, app_token: "x" },
      });
      expectError(res, 409, { key: "conflict", details });
    }
    expect(demo.apiKeys.get("ci-app").app_token).toBe("ci-secret");
    expect(demo.apiKeys.get("demo-app-id").app_token).toBe("demo-app-token");
  });

  const badKeys = [
    {
      body: { permissions: ["vouchers,campaigns"] },
      details: "Property .permissions[0] must be a scope value of the spec",
    },
    {
      body: { ip_allowlist: ["10.0.0.0/99"] },
      details: "Property .ip_allowlist[0] must be an IP address or a CIDR range",
    },
    { body: { app_id: "" }, details: "Property .app_id should NOT be shorter than 1 characters" },
    { body: { status: "BLOCKED" }, details: "Property .status is not allowed" },
    { body: [], details: "Request body should be object" },
  ];
  for (const { body, details } of badKeys) {
    it(`POST with ${JSON.stringify(body)} is 400 and adds no key`, async () => {
      const { app, demo } = buildWorld();
      expectError(await control(app, { method: "POST", path: "/__mock/projects/demo/keys", body }), 400, {
        details,
      });
      expect(demo.apiKeys.size).toBe(2);
    });
  }

  it("block refuses the key at once and its tokens after the grace period on the project's clock; unblock restores the key", async () => {
    const { app } = buildWorld();
    const token = await tokenFor(app, DEMO_KEYS);
    const blocked = await control(app, {
      method: "POST",
      path: "/__mock/projects/demo/keys/demo-app-id/block",
    });
    expect(blocked.body).toMatchObject({ status: "BLOCKED", blocked_at: "2026-11-20T10:00:00.000Z" });
    expectError(
      await send(app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS }),
      401,
      {},
    );
    expect((await withToken(app, token)).status).toBe(200);
    await moveClock(app, "demo", { advance_seconds: 60 });
    expectError(await withToken(app, token), 401, { details: /blocked or deleted/ });

    const unblocked = await control(app, {
      method: "POST",
      path: "/__mock/projects/demo/keys/demo-app-id/unblock",
    });
    expect(unblocked.body).toMatchObject({ status: "ACTIVE", blocked_at: null });
    expect(
      (await send(app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS })).status,
    ).toBe(200);
  });

  it("the grace period follows the project's setting", async () => {
    const { app } = buildWorld();
    const token = await tokenFor(app, DEMO_KEYS);
    await control(app, {
      method: "PATCH",
      path: "/__mock/projects/demo/settings",
      body: { token_grace_seconds: 0 },
    });
    await control(app, { method: "POST", path: "/__mock/projects/demo/keys/demo-app-id/block" });
    expectError(await withToken(app, token), 401, {});
  });

  it("regenerate replaces the secret at once and leaves tokens working", async () => {
    const { app } = buildWorld();
    const token = await tokenFor(app, DEMO_KEYS);
    const res = await control(app, {
      method: "POST",
      path: "/__mock/projects/demo/keys/demo-app-id/regenerate",
    });
    expect(res.body.app_token).not.toBe("demo-app-token");
    expectError(
      await send(app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS }),
      401,
      {},
    );
    const fresh = { "X-App-Id": "demo-app-id", "X-App-Token": res.body.app_token };
    expect(
      (await send(app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: fresh })).status,
    ).toBe(200);
    expect((await withToken(app, token)).status).toBe(200);
  });

  it("DELETE removes the key; its app id is free again; its tokens stop after the grace period", async () => {
    const { app } = buildWorld();
    const token = await tokenFor(app, DEMO_KEYS);
    const res = await control(app, { method: "DELETE", path: "/__mock/projects/demo/keys/demo-app-id" });
    expect(res.body).toEqual({ object: "api_key", app_id: "demo-app-id", deleted: true });
    expect((await withToken(app, token)).status).toBe(200);
    await moveClock(app, "demo", { advance_seconds: 61 });
    expectError(await withToken(app, token), 401, {});
    const reused = await control(app, {
      method: "POST",
      path: "/__mock/projects/other/keys",
      body: { app_id: "demo-app-id" },
    });
    expect(reused.status).toBe(201);
  });

  const unknown = [
    { method: "GET", path: "/__mock/projects/demo/keys/nope" },
    { method: "DELETE", path: "/__mock/projects/demo/keys/nope" },
    { method: "POST", path: "/__mock/projects/demo/keys/nope/block" },
    { method: "POST", path: "/__mock/projects/demo/keys/nope/unblock" },
    { method: "POST", path: "/__mock/projects/demo/keys/nope/regenerate" },
    { method: "POST", path: "/__mock/projects/demo/keys/other-app-id/block" },
  ] as const;
  for (const { method, path } of unknown) {
    it(`${method} ${path} is 404 api_key`, async () => {
      const { app, other } = buildWorld();
      expectError(await control(app, { method, path }), 404, { key: "not_found", resource_type: "api_key" });
      expect(other.apiKeys.get("other-app-id").status).toBe("ACTIVE");
    });
  }

  it("an unknown project is 404 project", async () => {
    const { app } = buildWorld();
    expectError(await control(app, { method: "POST", path: "/__mock/projects/nope/keys/x/block" }), 404, {
      resource_type: "project",
    });
  });
});

it("OTHER_KEYS stay untouched by anything done to demo's keys", async () => {
  const { app } = buildWorld();
  await control(app, { method: "POST", path: "/__mock/projects/demo/keys/demo-app-id/block" });
  expect(
    (await send(app, { method: "GET", path: "/v1/locations/loc_other_circle", headers: OTHER_KEYS })).status,
  ).toBe(200);
});
