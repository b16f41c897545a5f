import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { send } from "../helpers/http.js";
import { buildWorld } from "../helpers/world.js";

type App = Parameters<typeof send>[0];

async function newProject(app: App) {
  const res = await control(app, { method: "POST", path: "/__mock/projects", body: { template: "demo" } });
  expect(res.status).toBe(201);
  const keys = { "X-App-Id": res.body.app_id as string, "X-App-Token": res.body.app_token as string };
  return { id: res.body.project_id as string, keys };
}

describe("two projects created side by side", () => {
  it("never see each other's data, clock, faults, rate limit or journal", async () => {
    const { app, registry } = buildWorld();
    const a = await newProject(app);
    const b = await newProject(app);

    // Data: a record removed from one is still in the other; a key of one opens nothing in the other.
    registry.get(a.id).locations.delete("loc_demo_circle");
    const inA = await send(app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: a.keys });
    const inB = await send(app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: b.keys });
    expect([inA.status, inB.status]).toEqual([404, 200]);
    const crossed = { "X-App-Id": a.keys["X-App-Id"], "X-App-Token": b.keys["X-App-Token"] };
    expect(
      (await send(app, { method: "GET", path: "/v1/locations/loc_demo_polygon", headers: crossed })).status,
    ).toBe(401);

    // Clock.
    await control(app, {
      method: "POST",
      path: `/__mock/projects/${a.id}/clock`,
      body: { advance_seconds: 86_400 },
    });
    const clockA = await control(app, { method: "GET", path: `/__mock/projects/${a.id}/clock` });
    const clockB = await control(app, { method: "GET", path: `/__mock/projects/${b.id}/clock` });
    expect([clockA.body.now, clockB.body.now]).toEqual([
      "2026-11-21T10:00:00.000Z",
      "2026-11-20T10:00:00.000Z",
    ]);

    // Faults and rate limits.
    await control(app, {
      method: "POST",
      path: `/__mock/projects/${a.id}/faults`,
      body: { path: "/v1/**", action: "error", status: 503 },
    });
    await control(app, {
      method: "PATCH",
      path: `/__mock/projects/${a.id}/settings`,
      body: { rate_limit: { limit: 1 } },
    });
    const faultedA = await send(app, {
      method: "GET",
      path: "/v1/locations/loc_demo_polygon",
      headers: a.keys,
    });
    const cleanB = await send(app, {
      method: "GET",
      path: "/v1/locations/loc_demo_polygon",
      headers: b.keys,
    });
    expect([faultedA.status, cleanB.status]).toEqual([503, 200]);
    // B has the server's default limit (issue 15: on by default), never A's.
    expect(cleanB.headers["x-rate-limit-limit"]).toBe("2000");
    expect((await control(app, { method: "GET", path: `/__mock/projects/${b.id}/faults` })).body.total).toBe(
      0,
    );

    // Journal: each sees its own requests only.
    const journalA = await control(app, { method: "GET", path: `/__mock/projects/${a.id}/requests` });
    const journalB = await control(app, { method: "GET", path: `/__mock/projects/${b.id}/requests` });
    const ids = (res: typeof journalA) =>
      res.body.requests.map((e: { headers: Record<string, string> }) => e.headers["x-app-id"]);
    expect(new Set(ids(journalA))).toEqual(new Set([a.keys["X-App-Id"]]));
    expect(new Set(ids(journalB))).toEqual(new Set([b.keys["X-App-Id"]]));
    expect(journalA.body.total).toBe(3);
    expect(journalB.body.total).toBe(2);

    // Deleting one leaves the other working.
    await control(app, { method: "DELETE", path: `/__mock/projects/${a.id}` });
    expect(
      (await send(app, { method: "GET", path: "/v1/locations/loc_demo_polygon", headers: b.keys })).status,
    ).toBe(200);
    expect(
      (await send(app, { method: "GET", path: "/v1/locations/loc_demo_polygon", headers: a.keys })).status,
    ).toBe(401);
  });
});
