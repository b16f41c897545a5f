import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

const _UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function locationWith(app: Parameters<typeof send>[0], keys: Record<string, string>, id = "loc_demo_circle") {
  return send(app, { method: "GET", path: `/v1/locations/${id}`, headers: keys });
}

describe("projects: list, read, delete, reset", () => {
  it("GET /__mock/projects lists every project", async () => {
    const { app } = buildWorld();
    const res = await control(app, { method: "GET", path: "/__mock/projects" });
    expect(res.body).toMatchObject({ object: "list", data_ref: "projects", total: 2 });
    expect(res.body.projects.map((p: { id: string }) => p.id)).toEqual(["demo", "other"]);
  });

  it("GET /__mock/projects/{id} shows one, 404 for an unknown one", async () => {
    const { app } = buildWorld();
    const res = await control(app, { method: "GET", path: "/__mock/projects/demo" });
    expect(res.body).toMatchObject({
      id: "demo",
      name: "Demo project",
      api_keys: ["demo-app-id", "demo-readonly-app-id"],
    });
    expectError(await control(app, { method: "GET", path: "/__mock/projects/nope" }), 404, {
      key: "not_found",
      resource_type: "project",
      resource_id: "nope",
    });
  });

  it("DELETE removes a project and its keys stop working", async () => {
    const { app, registry } = buildWorld();
    const res = await control(app, { method: "DELETE", path: "/__mock/projects/demo" });
    expect(res.body).toEqual({ object: "project", id: "demo", deleted: true });
    expect(registry.list().map((project) => project.id)).toEqual(["other"]);
    expect((await locationWith(app, DEMO_KEYS)).status).toBe(401);
    expectError(await control(app, { method: "DELETE", path: "/__mock/projects/demo" }), 404, {});
  });

  it("POST .../reset puts one project back to its fixtures: data, clock, faults, journal", async () => {
    const { app, registry } = buildWorld();
    registry.get("demo").locations.delete("loc_demo_circle");
    registry.get("other").locations.delete("loc_other_circle");
    await control(app, {
      method: "POST",
      path: "/__mock/projects/demo/clock",
      body: { advance_seconds: 3600 },
    });
    await control(app, {
      method: "POST",
      path: "/__mock/projects/demo/faults",
      body: { path: "/x", action: "drop" },
    });
    await locationWith(app, DEMO_KEYS, "loc_demo_polygon");
    const res = await control(app, { method: "POST", path: "/__mock/projects/demo/reset" });
    expect(res.body).toMatchObject({
      id: "demo",
      now: "2026-11-20T10:00:00.000Z",
      counts: { requests: 0, faults: 0 },
    });
    expect(registry.get("demo").locations.has("loc_demo_circle")).toBe(true);
    expect(registry.get("other").locations.has("loc_other_circle")).toBe(false);
    expectError(await control(app, { method: "POST", path: "/__mock/projects/nope/reset" }), 404, {});
  });

  it("POST /__mock/reset puts every project back, created ones to what they were created with", async () => {
    const { app, registry } = buildWorld();
    const made = await control(app, {
      method: "POST",
      path: "/__mock/projects",
      body: { template: "other" },
    });
    registry.get("demo").locations.delete("loc_demo_circle");
    registry.get(made.body.project_id).locations.delete("loc_other_circle");
    const res = await control(app, { method: "POST", path: "/__mock/reset" });
    expect(res.body.total).toBe(3);
    expect(registry.get("demo").locations.has("loc_demo_circle")).toBe(true);
    expect(registry.get(made.body.project_id).locations.has("loc_other_circle")).toBe(true);
    const keys = { "X-App-Id": made.body.app_id, "X-App-Token": made.body.app_token };
    expect((await locationWith(app, keys, "loc_other_circle")).status).toBe(200);
  });
});

describe("control API routing", () => {
  const rows = [
    { method: "PUT", path: "/__mock/health", status: 405, allow: "GET, HEAD" },
    { method: "DELETE", path: "/__mock/projects", status: 405, allow: "GET, HEAD, POST" },
    { method: "GET", path: "/__mock/reset", status: 405, allow: "POST" },
    { method: "PUT", path: "/__mock/projects/demo/clock", status: 405, allow: "GET, HEAD, POST" },
    { method: "POST", path: "/__mock/projects/demo/requests", status: 405, allow: "GET, HEAD, DELETE" },
    { method: "GET", path: "/__mock/projects/demo/keys/demo-app-id/block", status: 405, allow: "POST" },
    { method: "GET", path: "/__mock/nothing", status: 404 },
    { method: "GET", path: "/__mock/projects/demo/widgets", status: 404 },
  ] as const;
  for (const row of rows) {
    it(`${row.method} ${row.path} is ${row.status}`, async () => {
      const { app } = buildWorld();
      const res = await control(app, { method: row.method, path: row.path });
      expect(res.status).toBe(row.status);
      if ("allow" in row) expect(res.headers.allow).toBe(row.allow);
      else expect(res.body.details).toBe(`Cannot ${row.method} ${row.path}: no such endpoint`);
    });
  }

  it("control calls are not journaled and need no project credentials", async () => {
    const { app, registry } = buildWorld();
    await control(app, { method: "GET", path: "/__mock/projects/demo", headers: DEMO_KEYS });
    expect(registry.get("demo").journal.size).toBe(0);
  });
});
