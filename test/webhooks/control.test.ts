import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULTS, readConfig } from "../../src/config/settings.js";
import { projectDocumentSchema } from "../../src/domain/projects/project-document.js";
import { isLoopbackHost } from "../../src/domain/webhooks/target.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { control } from "../helpers/control.js";
import { expectError } from "../helpers/http.js";
import { buildWorld, defaultDocuments, worldWith } from "../helpers/world.js";

/** The webhook endpoints' control API, and endpoints as project data: fixtures, state documents, the state file. */

const PATH = "/__mock/projects/demo/webhooks";
const post = (app: Parameters<typeof control>[0], body: unknown, path = PATH) =>
  control(app, { method: "POST", path, body });

const FIXTURE_HOOK = {
  id: "wh_0000000000000000a1",
  url: "http://127.0.0.1:4000/hooks",
  events: ["voucher.published"],
  secret: "fixture-secret",
  created_at: "2026-11-01T00:00:00.000Z",
};

describe("POST /__mock/projects/{projectId}/webhooks", () => {
  it("201 with the endpoint as given, its id and the project's time", async () => {
    const { app } = buildWorld();
    const body = {
      url: "http://127.0.0.1:4000/hooks",
      events: ["voucher.published", "customer.created"],
      secret: "my-secret",
      headers: { "x-extra": "v" },
      active: false,
    };
    const res = await post(app, body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-f]{18}$/),
      object: "webhook",
      ...body,
      created_at: "2026-11-20T10:00:00.000Z",
    });
  });

  it("makes a secret when none is given, a different one each time; all events and active by default", async () => {
    const { app } = buildWorld();
    const [a, b] = [
      await post(app, { url: "http://localhost:4000/a" }),
      await post(app, { url: "http://[::1]:4000/b" }),
    ];
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ events: [], active: true, headers: {} });
    expect(a.body.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(b.body.secret).not.toBe(a.body.secret);
    const list = await control(app, { method: "GET", path: PATH });
    expect(list.body).toEqual({ object: "list", data_ref: "webhooks", webhooks: [a.body, b.body], total: 2 });
  });

  it.each([
    [{}, /url/],
    [{ url: "ftp://127.0.0.1/x" }, /url should be an absolute http or https URL/],
    [{ url: "not a url" }, /url should be an absolute http or https URL/],
    [{ url: "http://user:pw@127.0.0.1/x" }, /url should not carry a user name or password/],
    [{ url: "http://127.0.0.1/x", events: ["Voucher Published"] }, /must be an event type/],
    [{ url: "http://127.0.0.1/x", headers: { "x-voucherify-signature": "forged" } }, /cannot be replaced/],
    [{ url: "http://127.0.0.1/x", headers: { "x-a": "one\r\nx-b: two" } }, /line breaks/],
    [{ url: "http://127.0.0.1/x", unknown: true }, /unknown/i],
    [{ url: "http://127.0.0.1/x", secret: "" }, /secret/],
  ])("400 invalid_payload for %j", async (body, details) => {
    const { app, demo } = buildWorld();
    const res = await post(app, body);
    expectError(res, 400, { key: "invalid_payload", details });
    expect(demo.webhooks.size).toBe(0);
  });

  it.each([
    [
      { events: ["Voucher.published"] },
      "Property .events[0] must be an event type such as voucher.published",
    ],
    [
      { events: ["voucher.published!"] },
      "Property .events[0] must be an event type such as voucher.published",
    ],
    [{ headers: { "x bad": "v" } }, "Property .headers.x bad is not an HTTP header name"],
    [
      { headers: { "X-Voucherify-Signature": "forged" } },
      "Property .headers.X-Voucherify-Signature is set by the sender and cannot be replaced",
    ],
    [{ url: "http://user@127.0.0.1/x" }, "Property .url should not carry a user name or password"],
    [{ url: "http://:pw@127.0.0.1/x" }, "Property .url should not carry a user name or password"],
  ])("400 invalid_payload for %j, naming what and why", async (given, details) => {
    const { app, demo } = buildWorld();
    const res = await post(app, { url: "http://127.0.0.1/x", ...given });
    expectError(res, 400, { key: "invalid_payload", details });
    expect(demo.webhooks.size).toBe(0);
  });

  it("the loopback rule: brackets around an address, one of each, and localhost in any case", () => {
    for (const host of [
      "localhost",
      "LocalHost",
      "127.0.0.1",
      "127.9.9.9",
      "::1",
      "[::1]",
      "[::ffff:127.0.0.1]",
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["[[::1]", "[::1]]", "10.0.0.1", "[::2]", "127.example.com", "localhost."])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it("a host other than loopback is 400 naming the rule and the setting; WEBHOOK_HOSTS allows it", async () => {
    const closed = buildWorld();
    const refused = await post(closed.app, { url: "http://hooks.example.com/x" });
    expectError(refused, 400, {
      key: "invalid_payload",
      details:
        "Property .url host hooks.example.com is not allowed: webhook targets must be loopback addresses " +
        "(127.0.0.0/8, ::1, localhost); LOYALTY_MOCK_WEBHOOK_HOSTS allows other hosts",
    });
    for (const url of ["http://10.0.0.1/x", "http://[::2]/x", "http://127.example.com/x"])
      expect((await post(closed.app, { url })).status).toBe(400);
    for (const url of ["http://127.0.0.2:9/x", "http://[::ffff:127.0.0.1]/x", "https://LOCALHOST/x"])
      expect((await post(closed.app, { url })).status).toBe(201);
    const listed = buildWorld({ defaults: { webhooks: { hosts: ["hooks.example.com"] } } });
    expect((await post(listed.app, { url: "http://hooks.example.com/x" })).status).toBe(201);
    expect((await post(listed.app, { url: "http://other.example.com/x" })).status).toBe(400);
    const any = buildWorld({ defaults: { webhooks: { hosts: "*" } } });
    expect((await post(any.app, { url: "https://anywhere.example.org/x" })).status).toBe(201);
  });

  it("404 for an unknown project", async () => {
    const { app } = buildWorld();
    const res = await post(app, { url: "http://127.0.0.1/x" }, "/__mock/projects/nope/webhooks");
    expectError(res, 404, { key: "not_found", details: "Cannot find project with id nope" });
  });
});

describe("DELETE /__mock/projects/{projectId}/webhooks/{webhookId}", () => {
  it("204, then the endpoint is gone; 404 for an unknown one; another project's is unknown", async () => {
    const { app, demo } = buildWorld();
    const { body } = await post(app, { url: "http://127.0.0.1/x" });
    const other = await control(app, {
      method: "DELETE",
      path: `/__mock/projects/other/webhooks/${body.id}`,
    });
    expectError(other, 404, { key: "not_found", details: `Cannot find webhook with id ${body.id}` });
    expect((await control(app, { method: "DELETE", path: `${PATH}/${body.id}` })).status).toBe(204);
    expect(demo.webhooks.size).toBe(0);
    const again = await control(app, { method: "DELETE", path: `${PATH}/${body.id}` });
    expectError(again, 404, { key: "not_found", resource_type: "webhook", resource_id: body.id });
  });
});

describe("endpoints as project data", () => {
  it("come from fixtures, are in the state document, and a reset puts the fixtures' back", async () => {
    const world = worldWith({ project: { id: "hooked" }, webhooks: [FIXTURE_HOOK] });
    const path = "/__mock/projects/hooked/webhooks";
    const listed = await control(world.app, { method: "GET", path });
    const fixture = { ...FIXTURE_HOOK, object: "webhook", active: true, headers: {} };
    expect(listed.body.webhooks).toEqual([fixture]);
    const added = await post(world.app, { url: "http://127.0.0.1:5000/x" }, path);
    await control(world.app, { method: "DELETE", path: `${path}/${FIXTURE_HOOK.id}` });
    const state = await control(world.app, { method: "GET", path: "/__mock/projects/hooked/state" });
    expect(state.body.webhooks).toEqual([added.body]);
    expect((await control(world.app, { method: "POST", path: "/__mock/projects/hooked/reset" })).status).toBe(
      200,
    );
    expect((await control(world.app, { method: "GET", path })).body.webhooks).toEqual([fixture]);
  });

  it("a state import brings its endpoints; a bad one is refused with its JSON path", async () => {
    const { app } = worldWith({ project: { id: "hooked" } });
    const put = (webhooks: unknown[]) =>
      control(app, {
        method: "PUT",
        path: "/__mock/projects/hooked/state",
        body: { project: { id: "hooked" }, webhooks },
      });
    expect((await put([FIXTURE_HOOK])).status).toBe(200);
    const listed = await control(app, { method: "GET", path: "/__mock/projects/hooked/webhooks" });
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toEqual([FIXTURE_HOOK.id]);
    const bad = await put([{ ...FIXTURE_HOOK, id: "hook-1" }]);
    expectError(bad, 400, { key: "invalid_payload", details: /^\$\.webhooks\[0\]\.id/ });
    const twice = await put([FIXTURE_HOOK, FIXTURE_HOOK]);
    expectError(twice, 400, { details: /duplicate id wh_0000000000000000a1/ });
  });

  it("the fixture format requires a secret and a creation time", () => {
    const { secret: _secret, ...withoutSecret } = FIXTURE_HOOK;
    const parsed = projectDocumentSchema.safeParse({ project: { id: "p" }, webhooks: [withoutSecret] });
    expect(parsed.success).toBe(false);
  });
});

describe("with LOYALTY_MOCK_STATE_FILE", () => {
  let dir: string | undefined;
  const servers: RunningServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("an endpoint made through the control API survives a restart; the outbox does not", async () => {
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-webhooks-"));
    const stateFile = join(dir, "state.json");
    const first = await startServer({ port: 0, stateFile, documents: defaultDocuments() });
    servers.push(first);
    const made = await fetch(`${first.url}${PATH}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:4000/hooks", secret: "kept" }),
    });
    expect(made.status).toBe(201);
    const endpoint = await made.json();
    first.registry.dispatcher.notify(
      first.registry.get("demo"),
      [{ type: "customer.created", entityId: "cust_1", data: {} }],
      { requestId: "v-000000000000000000", apiKey: { name: "k", app_id: "demo-app-id" } },
    );
    expect(first.registry.get("demo").outbox.size).toBe(1);
    await servers.pop()?.close();

    const second = await startServer({ port: 0, stateFile });
    servers.push(second);
    const list = (await (await fetch(`${second.url}${PATH}`)).json()) as { webhooks: unknown[] };
    expect(list.webhooks).toEqual([endpoint]);
    const outbox = (await (await fetch(`${second.url}${PATH}/deliveries`)).json()) as { total: number };
    expect(outbox.total).toBe(0);
  });
});

describe("the webhook settings", () => {
  it("LOYALTY_MOCK_WEBHOOK_HOSTS: host names and addresses, or *; anything else stops the start", () => {
    expect(readConfig({}).WEBHOOK_HOSTS).toBeUndefined();
    expect(
      readConfig({ LOYALTY_MOCK_WEBHOOK_HOSTS: "Hooks.internal, 10.0.0.5,[::2]" }).WEBHOOK_HOSTS,
    ).toEqual(["hooks.internal", "10.0.0.5", "[::2]"]);
    expect(readConfig({ LOYALTY_MOCK_WEBHOOK_HOSTS: "*" }).WEBHOOK_HOSTS).toBe("*");
    expect(() => readConfig({ LOYALTY_MOCK_WEBHOOK_HOSTS: "http://hooks.internal" })).toThrow(
      /LOYALTY_MOCK_WEBHOOK_HOSTS.*each entry must be a host name or an IP address/,
    );
    expect(() => readConfig({ LOYALTY_MOCK_WEBHOOK_TIMEOUT_MS: "10" })).toThrow(
      /LOYALTY_MOCK_WEBHOOK_TIMEOUT_MS/,
    );
    expect(() => readConfig({ LOYALTY_MOCK_WEBHOOK_QUEUE_LIMIT: "0" })).toThrow(
      /LOYALTY_MOCK_WEBHOOK_QUEUE_LIMIT/,
    );
  });

  it("startServer hands them to the registry's dispatcher, the rest keeping their defaults", async () => {
    const server = await startServer({
      port: 0,
      documents: defaultDocuments(),
      webhookHosts: ["hooks.internal"],
      webhookTimeoutMs: 1234,
    });
    try {
      expect(server.registry.dispatcher.settings).toEqual({
        timeoutMs: 1234,
        queueLimit: DEFAULTS.webhookQueueLimit,
        outboxSize: DEFAULTS.webhookOutboxSize,
        hosts: ["hooks.internal"],
      });
    } finally {
      await server.close();
    }
  });
});
