import request from "supertest";
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "../../src/config/settings.js";
import { OPERATIONS } from "../../src/http/operations/table.js";
import { createApp } from "../../src/index.js";
import { send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 15: the service supports cross-origin calls from a browser (voucherify-openapi
 * documentation/api-reference/introduction-api.mdx: "We support cross-origin resource sharing"). A preflight is
 * answered 204 with the methods and the headers the clients send, for any origin by default, never with
 * credentials.
 */
const ORIGIN = "http://localhost:5173";

function preflight(app: Parameters<typeof request>[0], path: string, method: string, origin = ORIGIN) {
  return request(app)
    .options(path)
    .set("Origin", origin)
    .set("Access-Control-Request-Method", method)
    .set("Access-Control-Request-Headers", "x-app-id, x-app-token, content-type, authorization");
}

const concrete = (path: string) => path.replace(/\{[^}]+\}/g, "x");

describe("CORS", () => {
  for (const row of OPERATIONS) {
    it(`${row.method} ${row.path} - a browser's preflight is 204 with the methods and the clients' headers`, async () => {
      const { app } = buildWorld();
      const res = await preflight(app, concrete(row.path), row.method);
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
      expect(res.headers["access-control-allow-origin"]).toBe("*");
      expect(res.headers["access-control-allow-methods"]?.split(", ")).toContain(row.method);
      const allowed = res.headers["access-control-allow-headers"]?.toLowerCase().split(", ");
      for (const header of [
        "x-app-id",
        "x-app-token",
        "authorization",
        "content-type",
        "x-voucherify-channel",
      ])
        expect(allowed).toContain(header);
      expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    });
  }

  it("a preflight to the control API needs no admin token, and nothing is journaled or counted", async () => {
    const world = buildWorld({ adminToken: "secret" });
    const res = await preflight(world.app, "/__mock/projects/demo/settings", "PATCH");
    expect(res.status).toBe(204);
    expect(res.headers["access-control-allow-methods"]?.split(", ")).toContain("PATCH");
    expect(res.headers["access-control-allow-headers"]).toContain("X-Mock-Admin-Token");
    expect(world.demo.journal.size).toBe(0);
    expect(world.demo.rateLimiter.window({ limit: 2000, window_seconds: 60 }, world.clock.now())).toBeNull();
  });

  it("the call itself carries Access-Control-Allow-Origin and exposes the request id and the rate-limit headers", async () => {
    const { app } = buildWorld();
    const res = await send(app, {
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      headers: { ...DEMO_KEYS, Origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    const exposed = res.headers["access-control-expose-headers"]?.split(", ");
    for (const header of [
      "X-Request-Id",
      "X-Rate-Limit-Limit",
      "X-Rate-Limit-Remaining",
      "X-Rate-Limit-Retry",
    ])
      expect(exposed).toContain(header);
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    const refused = await send(app, { method: "GET", path: "/v1/nowhere", headers: { Origin: ORIGIN } });
    expect(refused.status).toBe(404);
    expect(refused.headers["access-control-allow-origin"]).toBe("*");
  });

  it("CORS_ORIGINS limits the origins: a listed one is echoed (Vary: Origin), another gets no CORS headers", async () => {
    const origins = readConfig({
      LOYALTY_MOCK_CORS_ORIGINS: `${ORIGIN}, https://admin.example.com`,
    }).CORS_ORIGINS;
    expect(origins).toEqual([ORIGIN, "https://admin.example.com"]);
    const world = buildWorld();
    const app = createApp({ registry: world.registry, corsOrigins: origins });
    const listed = await preflight(app, "/v1/events", "POST");
    expect(listed.status).toBe(204);
    expect(listed.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(listed.headers.vary).toContain("Origin");
    const stranger = await preflight(app, "/v1/events", "POST", "https://evil.example.com");
    expect(stranger.status).toBe(204);
    expect(stranger.headers["access-control-allow-origin"]).toBeUndefined();
    expect(stranger.headers["access-control-allow-methods"]).toBeUndefined();
    const call = await send(app, {
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      headers: { ...DEMO_KEYS, Origin: "https://evil.example.com" },
    });
    expect(call.status).toBe(200);
    expect(call.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("an OPTIONS that is not a preflight is still the path's 405", async () => {
    const { app } = buildWorld();
    const res = await send(app, { method: "OPTIONS", path: "/v1/events", headers: { Origin: ORIGIN } });
    expect(res.status).toBe(405);
  });

  it("a bad CORS_ORIGINS names the variable", () => {
    expect(() => readConfig({ LOYALTY_MOCK_CORS_ORIGINS: "app.example.com" })).toThrow(ConfigError);
    expect(() => readConfig({ LOYALTY_MOCK_CORS_ORIGINS: "*,https://a.example.com" })).toThrow(
      /CORS_ORIGINS/,
    );
  });
});
