import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, tokenRecord } from "../helpers/world.js";

const READONLY = { "X-App-Id": "demo-readonly-app-id", "X-App-Token": "demo-readonly-app-token" };

/** A fixture key can move to another project (deleted here, created there); a reset must not steal it back. */
describe("resets when a fixture key has moved to another project", () => {
  async function moveReadonlyKeyToOther() {
    const world = buildWorld();
    const { app } = world;
    expect(
      (await control(app, { method: "DELETE", path: "/__mock/projects/demo/keys/demo-readonly-app-id" }))
        .status,
    ).toBe(200);
    const created = await control(app, {
      method: "POST",
      path: "/__mock/projects/other/keys",
      body: {
        app_id: "demo-readonly-app-id",
        app_token: "demo-readonly-app-token",
        permissions: ["locations"],
      },
    });
    expect(created.status).toBe(201);
    return world;
  }

  it("POST /__mock/projects/demo/reset is 409 and changes nothing; the key keeps working for its new project", async () => {
    const world = await moveReadonlyKeyToOther();
    const demoBefore = world.registry.get("demo");
    const res = await control(world.app, { method: "POST", path: "/__mock/projects/demo/reset" });
    expectError(res, 409, {
      key: "conflict",
      details: "App id demo-readonly-app-id is used by another project",
    });
    expect(world.registry.get("demo")).toBe(demoBefore);
    expect(world.registry.projectForAppId("demo-readonly-app-id")?.id).toBe("other");
    const location = await send(world.app, {
      method: "GET",
      path: "/v1/locations/loc_other_circle",
      headers: READONLY,
    });
    expect(location.status).toBe(200);
  });

  it("POST /__mock/reset puts every project back, the key with the project whose fixtures hold it", async () => {
    const world = await moveReadonlyKeyToOther();
    expect((await control(world.app, { method: "POST", path: "/__mock/reset" })).status).toBe(200);
    expect(world.registry.projectForAppId("demo-readonly-app-id")?.id).toBe("demo");
    const location = await send(world.app, {
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      headers: READONLY,
    });
    expect(location.status).toBe(200);
  });

  it("POST /__mock/reset is 409 and changes nothing when two projects' fixtures claim one app id", async () => {
    const world = buildWorld();
    await control(world.app, { method: "DELETE", path: "/__mock/projects/demo/keys/demo-readonly-app-id" });
    const created = await control(world.app, {
      method: "POST",
      path: "/__mock/projects",
      body: {
        project: { id: "claimer" },
        api_keys: [{ app_id: "demo-readonly-app-id", app_token: "x-token-123" }],
      },
    });
    expect(created.status).toBe(201);
    const projects = world.registry.list();
    const res = await control(world.app, { method: "POST", path: "/__mock/reset" });
    expectError(res, 409, {
      key: "conflict",
      details: "App id demo-readonly-app-id is claimed by the fixtures of projects demo and claimer",
    });
    expect(world.registry.list()).toEqual(projects);
    expect(world.registry.projectForAppId("demo-readonly-app-id")?.id).toBe("claimer");
  });
});

describe("resets when an access token has moved to another project", () => {
  const token = tokenRecord("moved-token-0123456789");

  it("POST /__mock/reset is 409 and changes nothing when two projects' fixtures claim one access token", async () => {
    const world = buildWorld();
    const post = (id: string) =>
      control(world.app, {
        method: "POST",
        path: "/__mock/projects",
        body: { project: { id }, tokens: [token] },
      });
    expect((await post("first")).status).toBe(201);
    // A state without the token frees it for another project, whose fixtures then hold it too.
    const state = await control(world.app, { method: "GET", path: "/__mock/projects/first/state" });
    const freed = await control(world.app, {
      method: "PUT",
      path: "/__mock/projects/first/state",
      body: { ...state.body, tokens: [] },
    });
    expect(freed.status).toBe(200);
    expect((await post("second")).status).toBe(201);
    const projects = world.registry.list();
    const res = await control(world.app, { method: "POST", path: "/__mock/reset" });
    expectError(res, 409, {
      key: "conflict",
      details: "An access token is claimed by the fixtures of projects first and second",
    });
    expect(world.registry.list()).toEqual(projects);
    expect(world.registry.projectForToken(token.access_token)?.id).toBe("second");
  });
});
