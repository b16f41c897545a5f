import { describe, expect, it } from "vitest";
import { DEFAULTS, SETTINGS } from "../../src/config/settings.js";
import { variableOf } from "../../src/config/settings-table.js";
import { CAP_VARIABLES } from "../../src/domain/caps.js";
import { startServer } from "../../src/server.js";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, defaultDocuments, storeSnapshot, type World } from "../helpers/world.js";

/**
 * The caps (PROJECT_LIMIT, KEY_LIMIT, FAULT_LIMIT, EVENT_LIMIT, MEMBER_LIMIT) over real HTTP on the real store:
 * up to the cap the call succeeds; past it, 409 limit_exceeded whose details name the variable, and nothing
 * changes. Small caps here; the defaults are checked to stay out of the way of everything else.
 */

describe("the variable a refusal names", () => {
  it("is the one the settings table reads for that cap", () => {
    for (const cap of Object.keys(CAP_VARIABLES) as (keyof typeof CAP_VARIABLES)[])
      expect(variableOf(SETTINGS[`caps.${cap}`])).toBe(CAP_VARIABLES[cap]);
  });
});

/** The events the demo project's fixtures hold already (its few weeks of history, issue 45): a cap counts them. */
const HISTORY = defaultDocuments().find((document) => document.project.id === "demo")?.events.length ?? 0;

function capped(caps: Partial<typeof DEFAULTS.caps>): World {
  return buildWorld({ defaults: { caps } });
}

function expectCap(
  res: Awaited<ReturnType<typeof send>>,
  limit: number,
  variable: string,
  what: string,
): void {
  expectError(res, 409, {
    key: "limit_exceeded",
    message: "Limit exceeded",
    details: new RegExp(`the maximum of ${limit} ${what}; ${variable} raises the limit$`),
  });
}

const newProject = (world: World) =>
  control(world.app, { method: "POST", path: "/__mock/projects", body: { template: "demo" } });

describe("PROJECT_LIMIT: projects of the server", () => {
  it("creations stop at the cap (fixtures count), with nothing created; a deletion makes room", async () => {
    const world = capped({ projects: 3 });
    expect((await newProject(world)).status).toBe(201);
    const refused = await newProject(world);
    expectCap(refused, 3, "LOYALTY_MOCK_PROJECT_LIMIT", "projects");
    expect(refused.body.details).toMatch(/^The server already holds/);
    expect(world.registry.list()).toHaveLength(3);
    const posted = await control(world.app, {
      method: "POST",
      path: "/__mock/projects",
      body: { project: { id: "posted" } },
    });
    expectCap(posted, 3, "LOYALTY_MOCK_PROJECT_LIMIT", "projects");
    expect((await control(world.app, { method: "DELETE", path: "/__mock/projects/other" })).status).toBe(200);
    expect((await newProject(world)).status).toBe(201);
  });

  it("a refused creation does not take the app ids it asked for", async () => {
    const world = capped({ projects: 2 });
    const body = { project: { id: "p1" }, api_keys: [{ app_id: "wanted-id", app_token: "secret-secret" }] };
    expectCap(
      await control(world.app, { method: "POST", path: "/__mock/projects", body }),
      2,
      "LOYALTY_MOCK_PROJECT_LIMIT",
      "projects",
    );
    expect(world.registry.projectForAppId("wanted-id")).toBeUndefined();
  });
});

describe("KEY_LIMIT: API keys per project", () => {
  it("key creations stop at the cap; the refused key does not exist anywhere", async () => {
    const world = capped({ keysPerProject: 3 });
    // The demo fixtures hold two keys.
    const path = "/__mock/projects/demo/keys";
    expect((await control(world.app, { method: "POST", path, body: { app_id: "third" } })).status).toBe(201);
    const refused = await control(world.app, { method: "POST", path, body: { app_id: "fourth" } });
    expectCap(refused, 3, "LOYALTY_MOCK_KEY_LIMIT", "API keys");
    expect(refused.body.details).toMatch(/^Project demo already holds/);
    expect(world.registry.projectForAppId("fourth")).toBeUndefined();
    const listed = await control(world.app, { method: "GET", path });
    expect(listed.body.api_keys.map((key: { app_id: string }) => key.app_id)).not.toContain("fourth");
    // Another project has its own room.
    const other = await control(world.app, { method: "POST", path: "/__mock/projects/other/keys", body: {} });
    expect(other.status).toBe(201);
    await control(world.app, { method: "DELETE", path: `${path}/third` });
    expect((await control(world.app, { method: "POST", path, body: { app_id: "fourth" } })).status).toBe(201);
  });
});

describe("FAULT_LIMIT: fault rules per project", () => {
  it("rule creations stop at the cap, the rules in place keep working, and a retired rule makes room", async () => {
    const world = capped({ faultsPerProject: 2 });
    const path = "/__mock/projects/demo/faults";
    const rule = (status: number, times?: number) => ({
      method: "GET",
      path: `/v1/locations/loc_demo_circle`,
      action: "error",
      status,
      ...(times && { times }),
    });
    expect((await control(world.app, { method: "POST", path, body: rule(503, 1) })).status).toBe(201);
    expect((await control(world.app, { method: "POST", path, body: rule(502) })).status).toBe(201);
    const refused = await control(world.app, { method: "POST", path, body: rule(500) });
    expectCap(refused, 2, "LOYALTY_MOCK_FAULT_LIMIT", "fault rules");
    expect(refused.body.details).toBe(
      "Project demo already holds the maximum of 2 fault rules; LOYALTY_MOCK_FAULT_LIMIT raises the limit",
    );
    expect((await control(world.app, { method: "GET", path })).body.faults).toHaveLength(2);
    const location = () =>
      send(world.app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS });
    expect((await location()).status).toBe(503);
    expect((await location()).status).toBe(502);
    expect((await control(world.app, { method: "POST", path, body: rule(500) })).status).toBe(201);
  });
});

describe("EVENT_LIMIT: custom events a project keeps", () => {
  const track = (world: World, who: string) =>
    send(world.app, {
      method: "POST",
      path: "/v1/events",
      headers: DEMO_KEYS,
      body: { event: "cart_abandoned", customer: { source_id: who } },
    });

  it("POST /v1/events is 409 at the cap and changes nothing: no event, no customer", async () => {
    const world = capped({ eventsPerProject: HISTORY + 2 });
    expect((await track(world, "one@example.com")).status).toBe(200);
    expect((await track(world, "two@example.com")).status).toBe(200);
    const before = storeSnapshot(world.demo);
    const refused = await track(world, "three@example.com");
    expectCap(refused, HISTORY + 2, "LOYALTY_MOCK_EVENT_LIMIT", "custom events");
    expect(refused.body.details).toBe(
      `Project demo already holds the maximum of ${HISTORY + 2} custom events; LOYALTY_MOCK_EVENT_LIMIT raises the limit`,
    );
    expect(storeSnapshot(world.demo)).toBe(before);
    expect(world.demo.customers.list().some((c) => c.source_id === "three@example.com")).toBe(false);
  });

  it("other refusals keep their own answer at the cap (the cap is checked last)", async () => {
    const world = capped({ eventsPerProject: HISTORY + 1 });
    expect((await track(world, "one@example.com")).status).toBe(200);
    const unknown = await send(world.app, {
      method: "POST",
      path: "/v1/events",
      headers: DEMO_KEYS,
      body: { event: "no_such_event", customer: { source_id: "x@example.com" } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.key).toBe("event_not_defined");
  });
});

describe("MEMBER_LIMIT: card assignments a project keeps", () => {
  const join = (world: World, who: string) =>
    send(world.app, {
      method: "POST",
      path: "/v1/loyalties/camp_demo_ondemand/members",
      headers: DEMO_KEYS,
      body: { customer: { source_id: who } },
    });

  it("POST .../members is 409 at the cap and changes nothing: no card, no publication, no customer", async () => {
    const fixtures = buildWorld().demo.publications.size;
    const world = capped({ membersPerProject: fixtures + 1 });
    expect((await join(world, "first@example.com")).status).toBe(200);
    const before = storeSnapshot(world.demo);
    const refused = await join(world, "second@example.com");
    expectCap(refused, fixtures + 1, "LOYALTY_MOCK_MEMBER_LIMIT", "card assignments");
    expect(refused.body.details).toMatch(/^Project demo already holds/);
    expect(storeSnapshot(world.demo)).toBe(before);
  });
});

describe("WEBHOOK_LIMIT: webhook endpoints per project", () => {
  it("endpoint creations stop at the cap with nothing added; a deletion makes room", async () => {
    const world = capped({ webhooksPerProject: 2 });
    const path = "/__mock/projects/demo/webhooks";
    const add = (port: number) =>
      control(world.app, { method: "POST", path, body: { url: `http://127.0.0.1:${port}/hooks` } });
    const first = await add(4001);
    expect(first.status).toBe(201);
    expect((await add(4002)).status).toBe(201);
    const refused = await add(4003);
    expectCap(refused, 2, "LOYALTY_MOCK_WEBHOOK_LIMIT", "webhook endpoints");
    expect(refused.body.details).toBe(
      "Project demo already holds the maximum of 2 webhook endpoints; LOYALTY_MOCK_WEBHOOK_LIMIT raises the limit",
    );
    expect(world.demo.webhooks.list().map((w) => w.url)).toEqual([
      "http://127.0.0.1:4001/hooks",
      "http://127.0.0.1:4002/hooks",
    ]);
    const deleted = await control(world.app, { method: "DELETE", path: `${path}/${first.body.id}` });
    expect(deleted.status).toBe(204);
    expect((await add(4003)).status).toBe(201);
  });
});

describe("startServer's caps option", () => {
  it("reaches the registry, the rest keeping their defaults, over a listening server", async () => {
    const server = await startServer({
      port: 0,
      documents: defaultDocuments(),
      caps: { eventsPerProject: HISTORY + 1 },
    });
    try {
      expect(server.registry.defaults.caps).toEqual({ ...DEFAULTS.caps, eventsPerProject: HISTORY + 1 });
      const post = (who: string) =>
        fetch(`${server.url}/v1/events`, {
          method: "POST",
          headers: { ...DEMO_KEYS, "Content-Type": "application/json" },
          body: JSON.stringify({ event: "cart_abandoned", customer: { source_id: who } }),
        });
      expect((await post("one@example.com")).status).toBe(200);
      const refused = await post("two@example.com");
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({
        key: "limit_exceeded",
        details: expect.stringContaining("LOYALTY_MOCK_EVENT_LIMIT"),
      });
    } finally {
      await server.close();
    }
  });
});

describe("the defaults", () => {
  it("are generous: a thousand projects, keys and rules; a hundred thousand events and assignments", () => {
    expect(DEFAULTS.caps).toEqual({
      projects: 1000,
      keysPerProject: 1000,
      faultsPerProject: 1000,
      eventsPerProject: 100_000,
      membersPerProject: 100_000,
      webhooksPerProject: 100,
      snapshotsPerProject: 20,
      snapshotMemoryMb: 1536,
    });
    expect(buildWorld().registry.defaults.caps).toEqual(DEFAULTS.caps);
  });
});
