import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config/settings.js";
import { REDACT_PATHS } from "../../src/platform/logger.js";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

const TOKEN = "s3cret-admin";

describe("the admin token (LOYALTY_MOCK_ADMIN_TOKEN)", () => {
  const paths = [
    { method: "GET", path: "/__mock/health" },
    { method: "GET", path: "/__mock/openapi.json" },
    { method: "POST", path: "/__mock/projects" },
    { method: "POST", path: "/__mock/reset" },
    { method: "GET", path: "/__mock/projects/demo/requests" },
    { method: "DELETE", path: "/__mock/projects/demo" },
    { method: "GET", path: "/__mock/projects/demo/state" },
    { method: "PUT", path: "/__mock/projects/demo/state" },
    { method: "GET", path: "/__mock/no-such-route" },
  ] as const;

  for (const { method, path } of paths) {
    it(`${method} ${path} without it is 401 and changes nothing`, async () => {
      const { app, registry } = buildWorld({ adminToken: TOKEN });
      expectError(
        await control(app, {
          method,
          path,
          body:
            method === "POST"
              ? { template: "demo" }
              : method === "PUT"
                ? { project: { id: "demo" } }
                : undefined,
        }),
        401,
        {
          key: "unauthorized",
          details: "Missing X-Mock-Admin-Token header",
        },
      );
      expect(registry.list().map((project) => project.id)).toEqual(["demo", "other"]);
    });
  }

  it("a wrong token is 401; the right one opens the control API", async () => {
    const { app } = buildWorld({ adminToken: TOKEN });
    const wrong = await control(app, {
      method: "GET",
      path: "/__mock/health",
      headers: { "X-Mock-Admin-Token": "s3cret-admiN" },
    });
    expectError(wrong, 401, { details: "Invalid X-Mock-Admin-Token" });
    const right = await control(app, {
      method: "GET",
      path: "/__mock/health",
      headers: { "X-Mock-Admin-Token": TOKEN },
    });
    expect(right.status).toBe(200);
    const created = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      headers: { "X-Mock-Admin-Token": TOKEN },
      body: { template: "other" },
    });
    expect(created.status).toBe(201);
  });

  it("the operations never ask for it", async () => {
    const { app } = buildWorld({ adminToken: TOKEN });
    expect(
      (await send(app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS })).status,
    ).toBe(200);
  });

  it("without one configured, the control API is open", async () => {
    const { app } = buildWorld();
    expect((await control(app, { method: "GET", path: "/__mock/health" })).status).toBe(200);
  });

  it("is read from LOYALTY_MOCK_ADMIN_TOKEN (not MOCK_ADMIN_TOKEN, its name before 0.5.0) and kept out of the logs", () => {
    expect(readConfig({ LOYALTY_MOCK_ADMIN_TOKEN: "abc" }).ADMIN_TOKEN).toBe("abc");
    expect(readConfig({ MOCK_ADMIN_TOKEN: "abc" }).ADMIN_TOKEN).toBeUndefined();
    expect(readConfig({ LOYALTY_MOCK_ADMIN_TOKEN: "" }).ADMIN_TOKEN).toBeUndefined();
    expect(REDACT_PATHS).toContain('req.headers["x-mock-admin-token"]');
  });

  it("JOURNAL_SIZE is read and bounded", () => {
    expect(readConfig({ LOYALTY_MOCK_JOURNAL_SIZE: "50" }).JOURNAL_SIZE).toBe(50);
    expect(() => readConfig({ LOYALTY_MOCK_JOURNAL_SIZE: "-1" })).toThrow(/JOURNAL_SIZE/);
  });
});
