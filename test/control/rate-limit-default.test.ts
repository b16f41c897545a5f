import { describe, expect, it } from "vitest";
import { projectDefaultsOf } from "../../src/config/project-defaults.js";
import { ConfigError, DEFAULTS, readConfig } from "../../src/config/settings.js";
import { OPERATIONS } from "../../src/http/operations/table.js";
import { exampleCall } from "../helpers/example-call.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 15: the real service sends `X-Rate-Limit-Limit` and `X-Rate-Limit-Remaining` on every answer, and past the
 * limit `X-Rate-Limit-Retry` (Unix seconds), `Retry-After` and `X-Rate-Limit-Type` (`api_calls` for the call
 * limit): voucherify-openapi documentation/guides/limits.mdx, "Response headers". The default limit is that page's
 * Organization plan, 2,000 API requests per minute.
 */

describe("rate-limit headers by default", () => {
  it("the default is the service's 2,000 calls a minute", () => {
    expect(DEFAULTS.rateLimitPerMinute).toBe(2000);
    expect(projectDefaultsOf(DEFAULTS).rateLimit).toEqual({ limit: 2000, window_seconds: 60 });
  });

  for (const row of OPERATIONS) {
    it(`${row.method} ${row.path} - a plain 200 carries X-Rate-Limit-Limit and the real remaining count`, async () => {
      const world = buildWorld();
      const res = await exampleCall(world, row);
      expect(res.status).toBe(200);
      expect(res.headers["x-rate-limit-limit"]).toBe("2000");
      // Every call the project made in this window counts, the v2 calls' token requests included.
      const used = world.demo.rateLimiter.window(
        { limit: 2000, window_seconds: 60 },
        world.clock.now(),
      )?.used;
      expect(used).toBeGreaterThan(0);
      expect(res.headers["x-rate-limit-remaining"]).toBe(String(2000 - (used ?? 0)));
      expect(res.headers["x-rate-limit-retry"]).toBeUndefined();
      expect(res.headers["x-rate-limit-type"]).toBeUndefined();
    });
  }

  it("errors of the project count and carry the headers too", async () => {
    const world = buildWorld();
    const res = await send(world.app, { method: "GET", path: "/v1/locations/loc_nope", headers: DEMO_KEYS });
    expectError(res, 404, { key: "not_found" });
    expect(res.headers).toMatchObject({ "x-rate-limit-limit": "2000", "x-rate-limit-remaining": "1999" });
  });

  it("past the server's limit: 429 with X-Rate-Limit-Retry, Retry-After and X-Rate-Limit-Type: api_calls", async () => {
    const world = buildWorld({ defaults: projectDefaultsOf({ ...DEFAULTS, rateLimitPerMinute: 2 }) });
    const location = () =>
      send(world.app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS });
    expect((await location()).headers["x-rate-limit-remaining"]).toBe("1");
    world.clock.advance(20);
    expect((await location()).headers["x-rate-limit-remaining"]).toBe("0");
    const refused = await location();
    expectError(refused, 429, {
      key: "api_limit_reached",
      message: "API limit reached",
      details: "The project may make 2 API requests per 60 s; retry in 40 s",
    });
    expect(refused.headers).toMatchObject({
      "x-rate-limit-limit": "2",
      "x-rate-limit-remaining": "0",
      "x-rate-limit-retry": String(Date.parse("2026-11-20T10:01:00.000Z") / 1000),
      "x-rate-limit-type": "api_calls",
      "retry-after": "40",
    });
    // The minute is the project's: moving its clock past it lets calls in again.
    world.clock.advance(40);
    expect((await location()).headers["x-rate-limit-remaining"]).toBe("1");
  });

  // The wait is rounded up, never down: a client that waits what Retry-After says must find the window over, and
  // X-Rate-Limit-Retry names the first whole second at or after the window's end.
  it("at fractional seconds Retry-After and X-Rate-Limit-Retry round up, never down", async () => {
    const world = buildWorld({ defaults: projectDefaultsOf({ ...DEFAULTS, rateLimitPerMinute: 1 }) });
    const location = () =>
      send(world.app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS });
    world.clock.set("2026-11-20T10:00:00.250Z");
    expect((await location()).status).toBe(200); // the window: 10:00:00.250 to 10:01:00.250
    world.clock.set("2026-11-20T10:00:20.500Z");
    const refused = await location();
    expectError(refused, 429, {
      key: "api_limit_reached",
      details: "The project may make 1 API request per 60 s; retry in 40 s",
    });
    expect(refused.headers).toMatchObject({
      "retry-after": "40", // 39.75 s to go
      "x-rate-limit-retry": String(Date.parse("2026-11-20T10:01:01.000Z") / 1000), // ends at 10:01:00.250
    });
    // A thousandth of a second before the end is still a whole second to wait.
    world.clock.set("2026-11-20T10:01:00.249Z");
    expect((await location()).headers["retry-after"]).toBe("1");
    world.clock.set("2026-11-20T10:01:00.250Z");
    expect((await location()).status).toBe(200);
  });

  it("RATE_LIMIT_PER_MINUTE=0 turns the limit and its headers off; a bad value names the variable", async () => {
    expect(readConfig({ LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: "0" }).RATE_LIMIT_PER_MINUTE).toBe(0);
    const world = buildWorld({ defaults: projectDefaultsOf({ ...DEFAULTS, rateLimitPerMinute: 0 }) });
    const res = await send(world.app, {
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      headers: DEMO_KEYS,
    });
    expect(res.status).toBe(200);
    expect(res.headers["x-rate-limit-limit"]).toBeUndefined();
    expect(() => readConfig({ LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: "-1" })).toThrow(ConfigError);
    expect(() => readConfig({ LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: "lots" })).toThrow(/RATE_LIMIT_PER_MINUTE/);
  });
});
