import { describe, expect, it } from "vitest";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { createApp, createRegistry, ManualClock } from "../../src/index.js";
import { DEFAULT_FIXTURES_DIR } from "../../src/platform/fixtures.js";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, type World } from "../helpers/world.js";

/**
 * Named snapshots (issue 35): POST/GET /__mock/projects/{id}/snapshots, POST .../{name}/restore, DELETE .../{name}.
 * Every answer is checked against the control API's own OpenAPI document (control()).
 */

const SNAPSHOTS = "/__mock/projects/demo/snapshots";

const save = (world: World, body: unknown, path = SNAPSHOTS) =>
  control(world.app, { method: "POST", path, body });
const restore = (world: World, name: string) =>
  control(world.app, { method: "POST", path: `${SNAPSHOTS}/${name}/restore` });

const join = (app: World["app"], sourceId: string, name?: string) =>
  send(app, {
    method: "POST",
    path: "/v1/loyalties/camp_demo_loyalty/members",
    headers: DEMO_KEYS,
    body: { customer: { source_id: sourceId, ...(name !== undefined && { name }) } },
  });

/** The project's state without its clock, which a restore sets apart (checked on its own). */
function stateOf(world: World) {
  const { project, ...collections } = exportProject(world.registry.get("demo"));
  const { clock: _clock, ...header } = project;
  return { header, collections };
}

describe("POST /__mock/projects/{projectId}/snapshots", () => {
  it("saves the state under a name: 201 with its clock and counts, then listed", async () => {
    const world = buildWorld();
    world.registry.get("demo").clock.advance(3600);
    const res = await save(world, { name: "start" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: "snapshot",
      name: "start",
      project_id: "demo",
      saved_at: "2026-11-20T10:00:00.000Z",
      clock: { now: "2026-11-20T11:00:00.000Z", frozen: false },
      // Every collection, in the document's order (projects/collections.ts lists them once).
      counts: {
        api_keys: 2,
        tokens: 0,
        locations: 3,
        campaigns: 5,
        vouchers: 1018,
        customers: 5,
        publications: 5,
        segments: 2,
        tier_structures: 4,
        incentives: 30,
        earning_rules: 2,
        event_schemas: 4,
        // The demo's few weeks of history (issue 45).
        events: 15,
        webhooks: 0,
      },
    });
    const list = await control(world.app, { method: "GET", path: SNAPSHOTS });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ object: "list", data_ref: "snapshots", snapshots: [res.body], total: 1 });
  });

  it("a name in use is 409 conflict and the snapshot stays as it was; replace: true saves over it", async () => {
    const world = buildWorld();
    expect((await save(world, { name: "start" })).status).toBe(201);
    expect((await join(world.app, "dana@example.com")).status).toBe(200);
    const refused = await save(world, { name: "start" });
    expectError(refused, 409, {
      key: "conflict",
      details: 'Project demo has a snapshot named start already; send "replace": true to save over it',
    });
    const kept = world.registry.snapshots.get("demo", "start");
    expect(kept.document.customers.some((c) => c.source_id === "dana@example.com")).toBe(false);
    const replaced = await save(world, { name: "start", replace: true });
    expect(replaced.status).toBe(201);
    expect(world.registry.snapshots.list("demo")).toHaveLength(1);
    expect(
      world.registry.snapshots
        .get("demo", "start")
        .document.customers.some((c) => c.source_id === "dana@example.com"),
    ).toBe(true);
  });

  it.each([
    [{}, "Property .name is required"],
    [{ name: "" }, "Property .name should match pattern"],
    [{ name: "a/b" }, "Property .name should match pattern"],
    [{ name: "-start" }, "Property .name should match pattern"],
    [{ name: "x".repeat(64) }, "Property .name should match pattern"],
    [{ name: "start", replace: "yes" }, "Property .replace should be boolean"],
    [{ name: "start", other: 1 }, "other"],
  ])("%j is 400 invalid_payload, nothing saved", async (body, details) => {
    const world = buildWorld();
    const res = await save(world, body);
    expectError(res, 400, { key: "invalid_payload" });
    expect(String(res.body.details)).toContain(details);
    expect(world.registry.snapshots.list("demo")).toEqual([]);
  });

  it("an unknown project is 404, nothing saved", async () => {
    const world = buildWorld();
    const res = await save(world, { name: "start" }, "/__mock/projects/nope/snapshots");
    expectError(res, 404, { key: "not_found" });
  });

  it("LOYALTY_MOCK_SNAPSHOT_LIMIT: past it 409 limit_exceeded naming the variable; replacing is no new one; a deletion makes room", async () => {
    const world = buildWorld({ defaults: { caps: { snapshotsPerProject: 2 } } });
    expect((await save(world, { name: "one" })).status).toBe(201);
    expect((await save(world, { name: "two" })).status).toBe(201);
    const refused = await save(world, { name: "three" });
    expectError(refused, 409, {
      key: "limit_exceeded",
      message: "Limit exceeded",
      details:
        "Project demo already holds the maximum of 2 snapshots; LOYALTY_MOCK_SNAPSHOT_LIMIT raises the limit",
    });
    expect(world.registry.snapshots.list("demo").map((s) => s.name)).toEqual(["one", "two"]);
    expect((await save(world, { name: "two", replace: true })).status).toBe(201);
    // The cap is per project.
    expect((await save(world, { name: "three" }, "/__mock/projects/other/snapshots")).status).toBe(201);
    expect((await control(world.app, { method: "DELETE", path: `${SNAPSHOTS}/one` })).status).toBe(200);
    expect((await save(world, { name: "three" })).status).toBe(201);
  });
});

describe("POST /__mock/projects/{projectId}/snapshots/{name}/restore", () => {
  it("puts the project back exactly: records, settings and the clock at the moment it showed, running on", async () => {
    const world = buildWorld();
    const demo = () => world.registry.get("demo");
    demo().clock.advance(86_400);
    expect((await join(world.app, "ada@example.com", "Ada")).status).toBe(200);
    const before = stateOf(world);
    const clockAt = demo().clock.now();
    expect((await save(world, { name: "start" })).status).toBe(201);

    // The demo goes on: a customer, an event, a month on the clock, settings, a fault; the server's time passes.
    expect((await join(world.app, "bea@example.com", "Bea")).status).toBe(200);
    await send(world.app, {
      method: "POST",
      path: "/v1/events",
      headers: DEMO_KEYS,
      body: { event: "user_subscribed", customer: { source_id: "ada@example.com" } },
    });
    await control(world.app, {
      method: "POST",
      path: "/__mock/projects/demo/clock",
      body: { advance_seconds: 30 * 86_400 },
    });
    await control(world.app, {
      method: "PATCH",
      path: "/__mock/projects/demo/settings",
      body: { token_grace_seconds: 5 },
    });
    await control(world.app, {
      method: "POST",
      path: "/__mock/projects/demo/faults",
      body: { method: "GET", path: "/v1/locations/*", status: 503 },
    });
    world.clock.advance(7200);
    expect(stateOf(world)).not.toEqual(before);

    const res = await restore(world, "start");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "project", id: "demo", now: new Date(clockAt).toISOString() });
    expect(stateOf(world)).toEqual(before);
    expect(demo().clock.now()).toBe(clockAt);
    expect(demo().clock.frozenAt).toBeUndefined();
    world.clock.advance(1);
    expect(demo().clock.now()).toBe(clockAt + 1000);
    // As after a reset: no fault rules, an empty journal.
    expect(demo().faults.list()).toEqual([]);
    // Restored as often as it is shown.
    expect((await join(world.app, "cy@example.com")).status).toBe(200);
    expect((await restore(world, "start")).status).toBe(200);
    expect(stateOf(world)).toEqual(before);
  });

  it("a frozen clock comes back frozen at its moment", async () => {
    const world = buildWorld();
    await control(world.app, {
      method: "POST",
      path: "/__mock/projects/demo/clock",
      body: { set: "2027-03-01T09:00:00Z", freeze: true },
    });
    expect((await save(world, { name: "frozen" })).body.clock).toEqual({
      now: "2027-03-01T09:00:00.000Z",
      frozen: true,
    });
    await control(world.app, {
      method: "POST",
      path: "/__mock/projects/demo/clock",
      body: { advance_seconds: 3600, freeze: false },
    });
    world.clock.advance(60);
    expect((await restore(world, "frozen")).status).toBe(200);
    const clock = await control(world.app, { method: "GET", path: "/__mock/projects/demo/clock" });
    expect(clock.body).toMatchObject({ now: "2027-03-01T09:00:00.000Z", frozen: true });
    world.clock.advance(60);
    expect(world.registry.get("demo").clock.iso()).toBe("2027-03-01T09:00:00.000Z");
  });

  it("an unknown name is 404 naming it, and nothing changes", async () => {
    const world = buildWorld();
    expect((await join(world.app, "ada@example.com")).status).toBe(200);
    const before = stateOf(world);
    const res = await restore(world, "nope");
    expectError(res, 404, { key: "not_found", details: "Cannot find snapshot with id nope" });
    expect(stateOf(world)).toEqual(before);
  });

  it("snapshots outlive a reset and a state import; they go with their project", async () => {
    const world = buildWorld();
    expect((await join(world.app, "ada@example.com")).status).toBe(200);
    expect((await save(world, { name: "start" })).status).toBe(201);
    expect((await control(world.app, { method: "POST", path: "/__mock/projects/demo/reset" })).status).toBe(
      200,
    );
    expect((await restore(world, "start")).status).toBe(200);
    expect(world.registry.get("demo").customers.findBySourceId("ada@example.com")).toBeDefined();

    const created = await control(world.app, {
      method: "POST",
      path: "/__mock/projects",
      body: { project: { id: "brief" } },
    });
    expect(created.status).toBe(201);
    expect((await save(world, { name: "x" }, "/__mock/projects/brief/snapshots")).status).toBe(201);
    expect((await control(world.app, { method: "DELETE", path: "/__mock/projects/brief" })).status).toBe(200);
    expect(world.registry.snapshots.list("brief")).toEqual([]);
    await control(world.app, {
      method: "POST",
      path: "/__mock/projects",
      body: { project: { id: "brief" } },
    });
    const list = await control(world.app, { method: "GET", path: "/__mock/projects/brief/snapshots" });
    expect(list.body.total).toBe(0);
  });
});

describe("DELETE /__mock/projects/{projectId}/snapshots/{name}", () => {
  it("removes it (200), then 404", async () => {
    const world = buildWorld();
    await save(world, { name: "start" });
    const res = await control(world.app, { method: "DELETE", path: `${SNAPSHOTS}/start` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: "snapshot", id: "start", deleted: true });
    const again = await control(world.app, { method: "DELETE", path: `${SNAPSHOTS}/start` });
    expectError(again, 404, { key: "not_found", details: "Cannot find snapshot with id start" });
  });
});

describe("a seeded project restored from a snapshot never makes an id the snapshot holds", () => {
  function seeded() {
    const clock = new ManualClock();
    const registry = createRegistry({
      clock,
      documents: loadProjectDocuments(DEFAULT_FIXTURES_DIR),
      seed: "snapshot-restore",
    });
    return { clock, registry, app: createApp({ registry }) } as unknown as World;
  }

  it("the customer after a restore is a new one, with a new card; the saved customer keeps hers", async () => {
    const world = seeded();
    const first = (await join(world.app, "first-customer")).body as {
      id: string;
      holder_id: string;
      code: string;
    };
    expect((await save(world, { name: "start" })).status).toBe(201);
    // The stream the project started with makes the first customer's values again (a reset shows it).
    expect((await control(world.app, { method: "POST", path: "/__mock/projects/demo/reset" })).status).toBe(
      200,
    );
    const again = (await join(world.app, "someone-else")).body as { holder_id: string };
    expect(again.holder_id).toBe(first.holder_id);

    expect((await restore(world, "start")).status).toBe(200);
    const second = await join(world.app, "second-customer");
    expect(second.status).toBe(200);
    const member = second.body as { id: string; holder_id: string; code: string };
    expect(member.holder_id).not.toBe(first.holder_id);
    expect(member.id).not.toBe(first.id);
    expect(member.code).not.toBe(first.code);
    const demo = world.registry.get("demo");
    expect(demo.customers.get(first.holder_id).source_id).toBe("first-customer");
    expect(demo.customers.get(member.holder_id).source_id).toBe("second-customer");
    // Joining again is refused: she still holds her one card.
    expect((await join(world.app, "first-customer")).status).toBe(400);
  });

  it("two servers with the same seed restoring the same snapshot make the same values after it", async () => {
    const made: string[] = [];
    for (const world of [seeded(), seeded()]) {
      await join(world.app, "first-customer");
      await save(world, { name: "start" });
      await restore(world, "start");
      made.push(((await join(world.app, "second-customer")).body as { holder_id: string }).holder_id);
    }
    expect(made[0]).toBe(made[1]);
  });
});
