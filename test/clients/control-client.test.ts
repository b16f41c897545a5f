import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ControlClient,
  ControlError,
  ProjectControl,
  type RunningServer,
  startServer,
} from "../../src/index.js";
import { controlTemplate, validateControl } from "../helpers/control.js";
import { type Receiver, startReceiver } from "../helpers/receiver.js";
import { DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 48: the typed control client (`loyalty-mock/control-client`, and the main entry) against a real server
 * with an admin token. Every answer it gets is checked against the control API's own document, every call must
 * name a documented route, and every method of the client is called here (a method added without a test fails).
 */
const ADMIN_TOKEN = "client-secret";
let server: RunningServer;
let receiver: Receiver;
const routes = new Set<string>();
const called = new Set<string>();

/** fetch as the client uses it, each answer checked against the document and its route recorded. */
const checkedFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const url = new URL(String(input));
  const path = url.pathname;
  const template = controlTemplate(path);
  expect(template, `${init?.method} ${url.pathname} is a documented route`).toBeDefined();
  routes.add(`${init?.method} ${template}`);
  const text = await res.clone().text();
  validateControl(
    init?.method ?? "GET",
    `${path}${url.search}`,
    res.status,
    text === "" ? undefined : JSON.parse(text),
  );
  return res;
};

/** The object with each method call recorded by name, so the last test can tell which were never called. */
function recorded<T extends object>(target: T, prefix: string): T {
  return new Proxy(target, {
    get(object, name) {
      const value = Reflect.get(object, name, object);
      if (typeof value !== "function") return value;
      called.add(`${prefix}.${String(name)}`);
      return value.bind(object);
    },
  });
}

let control: ControlClient;
let project: ProjectControl;

beforeAll(async () => {
  server = await startServer({ port: 0, adminToken: ADMIN_TOKEN, seed: "control-client" });
  receiver = await startReceiver();
  control = recorded(
    new ControlClient(server.url, { adminToken: ADMIN_TOKEN, fetch: checkedFetch }),
    "client",
  );
  const created = await control.createProject({ template: "demo", project_id: "client-test" });
  expect(created).toMatchObject({ object: "project", project_id: "client-test", template: "demo" });
  project = recorded(control.project(created.project_id), "project");
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

async function getLocation(keys: Record<string, string>) {
  const res = await fetch(`${server.url}/v1/locations/loc_demo_circle`, { headers: keys });
  await res.arrayBuffer();
  return res.status;
}

describe("ControlClient: the server's calls", () => {
  it("health, operations and projects", async () => {
    expect(await control.health()).toMatchObject({ status: "ok", control: "token" });
    expect((await control.operations()).map((operation) => operation.name)).toContain("addMember");
    expect((await control.projects()).map((listed) => listed.id)).toEqual(["demo", "other", "client-test"]);
  });

  it("project(id) makes no call until one of its methods does", () => {
    const before = routes.size;
    expect(control.project("no-such-project").id).toBe("no-such-project");
    expect(routes.size).toBe(before);
  });

  it("a refusal is a ControlError with the service's error object; a wrong token is 401", async () => {
    const refused = await control
      .project("no-such-project")
      .get()
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ControlError);
    expect(refused).toMatchObject({ status: 404, key: "not_found" });
    expect((refused as ControlError).message).toMatch(
      /^GET \/__mock\/projects\/no-such-project: 404 not_found: /,
    );
    const stranger = new ControlClient(`${server.url}/`, { adminToken: "wrong" });
    await expect(stranger.health()).rejects.toMatchObject({ status: 401, key: "unauthorized" });
  });

  it("resetAll puts every project back to its fixtures", async () => {
    expect((await control.resetAll()).map((listed) => listed.id)).toContain("client-test");
  });
});

describe("ProjectControl: one project's calls", () => {
  it("get, keys, settings and updateSettings", async () => {
    expect(await project.get()).toMatchObject({ object: "project", id: "client-test" });
    const [key] = await project.keys();
    expect(key?.status).toBe("ACTIVE");
    expect((await project.settings()).effective.journal_size).toBe(1000);
    expect((await project.updateSettings({ journal_size: 50 })).settings.journal_size).toBe(50);
  });

  it("clock and moveClock", async () => {
    const before = Date.parse((await project.clock()).now);
    const moved = await project.moveClock({ advance_seconds: 3600, freeze: true });
    expect(moved.frozen).toBe(true);
    expect(Date.parse(moved.now) - before).toBeGreaterThanOrEqual(3600_000);
  });

  it("addFault, faults, deleteFault and clearFaults steer the project's answers", async () => {
    const [key] = await project.keys();
    const keys = { "X-App-Id": key?.app_id as string, "X-App-Token": key?.app_token as string };
    const rule = await project.addFault({ path: "/v1/locations/*", action: "error", status: 503 });
    expect((await project.faults()).map((fault) => fault.id)).toEqual([rule.id]);
    expect(await getLocation(keys)).toBe(503);
    expect(await project.deleteFault(rule.id)).toMatchObject({ deleted: true });
    expect(await getLocation(keys)).toBe(200);
    await project.addFault({ path: "/v1/locations/*", action: "error", status: 500 });
    expect(await project.clearFaults()).toMatchObject({ deleted: 1 });
  });

  it("requests with filters, and clearRequests", async () => {
    const [key] = await project.keys();
    const keys = { "X-App-Id": key?.app_id as string, "X-App-Token": key?.app_token as string };
    await project.clearRequests();
    await project.addFault({ path: "/v1/locations/*", action: "error", status: 503, times: 1 });
    expect(await getLocation(keys)).toBe(503);
    expect(await getLocation(keys)).toBe(200);
    // A fault answers before the operation runs: its entry names the operation whose route the request took.
    const failed = await project.requests({ path: "/v1/locations/{id}", status: ["5xx", 404] });
    expect(failed.map((entry) => [entry.operation, entry.status])).toEqual([["getLocation", 503]]);
    const served = await project.requests({ method: ["GET", "POST"], operation: "getLocation", limit: 1 });
    expect(served.map((entry) => [entry.operation, entry.status])).toEqual([["getLocation", 200]]);
    const both = await project.requests({ operation: "getLocation" });
    expect(both.map((entry) => entry.status)).toEqual([503, 200]);
    expect(await project.clearRequests()).toMatchObject({ deleted: 2 });
    expect(await project.requests()).toEqual([]);
  });

  it("saveSnapshot, snapshots, restoreSnapshot and deleteSnapshot", async () => {
    const saved = await project.saveSnapshot("start");
    expect(saved).toMatchObject({ object: "snapshot", name: "start", project_id: "client-test" });
    await expect(project.saveSnapshot("start")).rejects.toMatchObject({ status: 409, key: "conflict" });
    expect((await project.saveSnapshot("start", { replace: true })).name).toBe("start");
    expect((await project.snapshots()).map((snapshot) => snapshot.name)).toEqual(["start"]);
    expect(await project.restoreSnapshot("start")).toMatchObject({ id: "client-test" });
    expect(await project.deleteSnapshot("start")).toMatchObject({ deleted: true });
    expect(await project.snapshots()).toEqual([]);
  });

  it("addWebhook, webhooks, deliveries, resendDelivery, clearDeliveries and deleteWebhook", async () => {
    const [key] = await project.keys();
    const endpoint = await project.addWebhook({ url: receiver.url });
    expect((await project.webhooks()).map((webhook) => webhook.id)).toEqual([endpoint.id]);
    const join = await fetch(`${server.url}/v1/loyalties/camp_demo_loyalty/members`, {
      method: "POST",
      headers: {
        "X-App-Id": key?.app_id as string,
        "X-App-Token": key?.app_token as string,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ customer: { source_id: "client@example.com" } }),
    });
    expect(join.status).toBe(200);
    await join.arrayBuffer();
    await server.registry.dispatcher.settled();
    const received = receiver.received.length;
    const [delivery] = await project.deliveries({ status: "delivered", webhook_id: endpoint.id, limit: 1 });
    expect(delivery?.status).toBe("delivered");
    expect((await project.resendDelivery(delivery?.id as string)).status).toBe("pending");
    await server.registry.dispatcher.settled();
    expect(receiver.received.length).toBe(received + 1);
    expect(await project.clearDeliveries()).toBeUndefined();
    expect(await project.deliveries()).toEqual([]);
    expect(await project.deleteWebhook(endpoint.id)).toBeUndefined();
  });

  it("reset, then delete", async () => {
    expect((await project.reset()).counts.requests).toBe(0);
    expect(await project.delete()).toMatchObject({ object: "project", id: "client-test", deleted: true });
    await expect(project.get()).rejects.toMatchObject({ status: 404 });
  });

  it("the demo project's own keys still answer: the calls above touched only their project", async () => {
    expect(await getLocation(DEMO_KEYS)).toBe(200);
  });
});

describe("every method", () => {
  it("of both classes was called above", () => {
    const methods = (prefix: string, prototype: object) =>
      Object.getOwnPropertyNames(prototype)
        .filter((name) => name !== "constructor")
        .map((name) => `${prefix}.${name}`);
    const all = [
      ...methods("client", ControlClient.prototype),
      ...methods("project", ProjectControl.prototype),
    ];
    expect(all.filter((name) => !called.has(name))).toEqual([]);
    expect(all.length).toBeGreaterThan(25);
  });
});
