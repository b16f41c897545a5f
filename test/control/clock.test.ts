import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { moveClock, tokenFor, withToken } from "../helpers/control-steps.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

describe("/__mock/projects/{id}/clock", () => {
  it("GET reads the project's clock", async () => {
    const { app } = buildWorld();
    const res = await control(app, { method: "GET", path: "/__mock/projects/demo/clock" });
    expect(res.body).toEqual({
      object: "clock",
      project_id: "demo",
      now: "2026-11-20T10:00:00.000Z",
      offset_ms: 0,
      frozen: false,
    });
  });

  it("advance_seconds moves it forward or back; set puts it at a moment", async () => {
    const { app } = buildWorld();
    expect((await moveClock(app, "demo", { advance_seconds: 90 })).body.now).toBe("2026-11-20T10:01:30.000Z");
    expect((await moveClock(app, "demo", { advance_seconds: -30.5 })).body.now).toBe(
      "2026-11-20T10:00:59.500Z",
    );
    const set = await moveClock(app, "demo", { set: "2027-01-01T02:00:00+02:00" });
    expect(set.body).toMatchObject({ now: "2027-01-01T00:00:00.000Z" });
  });

  it("a token is refused once its project's clock passes 900 s; another project's token still works", async () => {
    const { app } = buildWorld();
    const created = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: { template: "demo" },
    });
    const mine = await tokenFor(app, {
      "X-App-Id": created.body.app_id,
      "X-App-Token": created.body.app_token,
    });
    const theirs = await tokenFor(app, DEMO_KEYS);

    await moveClock(app, created.body.project_id, { advance_seconds: 899 });
    expect((await withToken(app, mine)).status).toBe(200);
    await moveClock(app, created.body.project_id, { advance_seconds: 1 });
    expectError(await withToken(app, mine), 401, { details: "The access token has expired" });
    expect((await withToken(app, theirs)).status).toBe(200);
  });

  it("records made after a move carry the project's time", async () => {
    const { app } = buildWorld();
    await moveClock(app, "demo", { set: "2030-05-01T12:00:00.000Z" });
    const token = await send(app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      form: true,
      body: "grant_type=client_credentials&scope=api",
    });
    expect(token.body.expires_at).toBe(Date.parse("2030-05-01T12:15:00.000Z") / 1000);
  });

  const bad = [
    { body: {}, details: "Request body must have exactly one of advance_seconds and set" },
    { body: undefined, details: "Request body should be object" },
    {
      body: { advance_seconds: 1, set: "2027-01-01T00:00:00Z" },
      details: "Request body must have exactly one of advance_seconds and set",
    },
    { body: { advance_seconds: "60" }, details: "Property .advance_seconds should be number" },
    { body: { advance_seconds: 1e12 }, details: "Property .advance_seconds should be <= 316224000" },
    { body: { set: "tomorrow" }, details: 'Property .set should match format "datetime"' },
    { body: { set: "2027-01-01T00:00:00Z", extra: 1 }, details: "Property .extra is not allowed" },
  ];
  for (const { body, details } of bad) {
    it(`POST with ${JSON.stringify(body)} is 400 and leaves the clock alone`, async () => {
      const { app, demo } = buildWorld();
      expectError(await moveClock(app, "demo", body), 400, { key: "invalid_payload", details });
      expect(demo.clock.iso()).toBe("2026-11-20T10:00:00.000Z");
    });
  }

  it("404 for an unknown project, GET and POST alike", async () => {
    const { app } = buildWorld();
    expectError(await control(app, { method: "GET", path: "/__mock/projects/nope/clock" }), 404, {
      resource_type: "project",
    });
    expectError(await moveClock(app, "nope", { advance_seconds: 1 }), 404, { resource_type: "project" });
  });
});
