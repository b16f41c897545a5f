import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, OTHER_KEYS } from "../helpers/world.js";

type App = Parameters<typeof send>[0];

function journal(app: App, query = "", project = "demo") {
  return control(app, { method: "GET", path: `/__mock/projects/${project}/requests${query}` });
}

function location(app: App, headers: Record<string, string>, id = "loc_demo_circle") {
  return send(app, { method: "GET", path: `/v1/locations/${id}?expand=none`, headers });
}

describe("the request journal", () => {
  it("records method, path, query, headers, status, response body and time on the project's clock", async () => {
    const { app, clock } = buildWorld();
    const res = await location(app, DEMO_KEYS);
    clock.advance(5);
    const entries = (await journal(app)).body.requests;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      request_id: res.headers["x-request-id"],
      time: "2026-11-20T10:00:00.000Z",
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      operation: "getLocation",
      query: { expand: "none" },
      body: null,
      status: 200,
      response_body: res.body,
      authenticated: true,
      fault: null,
      rate_limited: false,
    });
    expect(entries[0].headers).toMatchObject({ "x-app-id": "demo-app-id", "x-app-token": "[redacted]" });
  });

  it("redacts every secret: key secrets, bearer tokens (keeping the scheme), X-Service-OAuth, the admin token, access_token in answers", async () => {
    const { app } = buildWorld();
    const token = await send(app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      form: true,
      body: "grant_type=client_credentials&scope=api",
    });
    await send(app, {
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      headers: { Authorization: `Bearer ${token.body.access_token}`, "X-Mock-Admin-Token": "adm" },
    });
    await send(app, {
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      headers: { "X-Service-OAuth": token.body.access_token },
    });
    const [issued, bearer, service] = (await journal(app)).body.requests;
    expect(issued.body).toEqual({ grant_type: "client_credentials", scope: "api" });
    expect(issued.response_body).toMatchObject({ access_token: "[redacted]", token_type: "Bearer" });
    expect(bearer.headers).toMatchObject({
      authorization: "Bearer [redacted]",
      "x-mock-admin-token": "[redacted]",
    });
    expect(service.headers["x-service-oauth"]).toBe("[redacted]");
    const text = JSON.stringify((await journal(app)).body);
    expect(text).not.toContain(token.body.access_token);
    expect(text).not.toContain("demo-app-token");
  });

  it("shows what was sent and answered then, whatever the store holds later", async () => {
    const { app, demo } = buildWorld();
    const body = { customer: { source_id: "later", metadata: { plan: "a" } } };
    const joined = await send(app, {
      method: "POST",
      path: "/v1/loyalties/camp_demo_loyalty/members",
      headers: DEMO_KEYS,
      body,
    });
    expect(joined.body.loyalty_card.points).toBe(0);
    // An earning rule pays the new card, and the customer's metadata changes, after the answer went out.
    await send(app, {
      method: "POST",
      path: "/v1/events",
      headers: DEMO_KEYS,
      body: {
        event: "user_subscribed",
        customer: { source_id: "later", metadata: { plan: "b" } },
        metadata: { plan: "pro" },
      },
    });
    expect(demo.vouchers.get(joined.body.id).loyalty_card).toMatchObject({ points: 100 });
    const [assignment] = (await journal(app, "?path=/v1/loyalties/**")).body.requests;
    expect(assignment.body).toEqual(body);
    expect(assignment.response_body).toEqual(joined.body);
  });

  it("gives every reader its own copy of an entry", async () => {
    const { app, demo } = buildWorld();
    await location(app, DEMO_KEYS);
    const [first] = demo.journal.list();
    if (!first) throw new Error("no entry");
    (first.response_body as { name: string }).name = "changed by a reader";
    first.headers["x-app-id"] = "changed";
    const [again] = demo.journal.list();
    expect(again?.response_body).toMatchObject({ name: demo.locations.get("loc_demo_circle").name });
    expect(again?.headers["x-app-id"]).toBe("demo-app-id");
  });

  it("keeps a body the operation could not parse as its raw text", async () => {
    const { app } = buildWorld();
    await send(app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: { ...DEMO_KEYS, "Content-Type": "application/json" },
      body: '{"grant_type":',
    });
    const [entry] = (await journal(app)).body.requests;
    expect(entry).toMatchObject({ status: 400, body: '{"grant_type":' });
  });

  it("journals unknown routes and wrong methods of the project too", async () => {
    const { app } = buildWorld();
    await send(app, { method: "GET", path: "/v1/widgets", headers: DEMO_KEYS });
    await send(app, { method: "DELETE", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS });
    const entries = (await journal(app)).body.requests;
    expect(entries.map((entry: { status: number }) => entry.status)).toEqual([404, 405]);
    // No row handled either, so neither names an operation.
    expect(entries.map((entry: { operation: string | null }) => entry.operation)).toEqual([null, null]);
  });

  describe("attribution of requests that fail authentication", () => {
    it("a known X-App-Id with a wrong secret lands in its project, marked unauthenticated", async () => {
      const { app } = buildWorld();
      await location(app, { "X-App-Id": "demo-app-id", "X-App-Token": "wrong" });
      await location(app, { "X-App-Id": "demo-app-id" });
      const entries = (await journal(app)).body.requests;
      expect(
        entries.map((e: { status: number; authenticated: boolean }) => [e.status, e.authenticated]),
      ).toEqual([
        [401, false],
        [401, false],
      ]);
      expect(entries[0].headers["x-app-token"]).toBe("[redacted]");
      expect((await journal(app, "", "other")).body.total).toBe(0);
    });

    it("a token the server issued names its project even once it has expired", async () => {
      const { app, clock } = buildWorld();
      const token = await send(app, {
        method: "POST",
        path: "/v1/oauth/token",
        headers: OTHER_KEYS,
        form: true,
        body: "grant_type=client_credentials&scope=api",
      });
      clock.advance(901);
      await send(app, {
        method: "GET",
        path: "/v1/locations/loc_other_circle",
        headers: { Authorization: `Bearer ${token.body.access_token}` },
      });
      const entries = (await journal(app, "?method=GET", "other")).body.requests;
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ status: 401, authenticated: false });
    });

    it("no credentials, an unknown app id or an unknown token land nowhere", async () => {
      const { app, registry } = buildWorld();
      await location(app, {});
      await location(app, { "X-App-Id": "who", "X-App-Token": "demo-app-token" });
      await location(app, { Authorization: "Bearer made-up-token" });
      expect(registry.list().map((project) => project.journal.size)).toEqual([0, 0]);
    });
  });

  it("keeps only the newest entries: JOURNAL_SIZE server-wide, journal_size per project", async () => {
    const { app } = buildWorld({ defaults: { journalSize: 3 } });
    for (const id of ["loc_a", "loc_b", "loc_c", "loc_d"]) await location(app, DEMO_KEYS, id);
    expect((await journal(app)).body.requests.map((e: { path: string }) => e.path)).toEqual([
      "/v1/locations/loc_b",
      "/v1/locations/loc_c",
      "/v1/locations/loc_d",
    ]);
    await control(app, {
      method: "PATCH",
      path: "/__mock/projects/demo/settings",
      body: { journal_size: 1 },
    });
    expect((await journal(app)).body.requests.map((e: { path: string }) => e.path)).toEqual([
      "/v1/locations/loc_d",
    ]);
    await control(app, {
      method: "PATCH",
      path: "/__mock/projects/demo/settings",
      body: { journal_size: 0 },
    });
    await location(app, DEMO_KEYS);
    expect((await journal(app)).body.total).toBe(0);
  });

  it("DELETE empties the project's journal only", async () => {
    const { app } = buildWorld();
    await location(app, DEMO_KEYS);
    await location(app, OTHER_KEYS, "loc_other_circle");
    const res = await control(app, { method: "DELETE", path: "/__mock/projects/demo/requests" });
    expect(res.body).toEqual({ object: "requests", deleted: 1 });
    expect((await journal(app)).body.total).toBe(0);
    expect((await journal(app, "", "other")).body.total).toBe(1);
  });

  it("404 for an unknown project", async () => {
    const { app } = buildWorld();
    expectError(await journal(app, "", "nope"), 404, { resource_type: "project" });
    expectError(await control(app, { method: "DELETE", path: "/__mock/projects/nope/requests" }), 404, {});
  });
});
