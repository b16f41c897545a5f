import { describe, expect, it } from "vitest";
import { control } from "./helpers/control.js";
import { expectError, send } from "./helpers/http.js";
import { buildWorld, DEMO_KEYS, OTHER_KEYS } from "./helpers/world.js";

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
    const statuses = (await journal(app)).body.requests.map((entry: { status: number }) => entry.status);
    expect(statuses).toEqual([404, 405]);
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

  describe("filters", () => {
    async function traffic(app: App, clock: { advance(seconds: number): void }) {
      await location(app, DEMO_KEYS); // 10:00:00 200
      clock.advance(60);
      await location(app, DEMO_KEYS, "loc_nope"); // 10:01:00 404
      clock.advance(60);
      await send(app, {
        method: "POST",
        path: "/v1/oauth/token",
        headers: DEMO_KEYS,
        form: true,
        body: "grant_type=x",
      }); // 10:02:00 400
      clock.advance(60);
      await location(app, DEMO_KEYS, "loc_demo_polygon"); // 10:03:00 200
    }
    const rows = [
      {
        query: "?method=GET",
        paths: ["/v1/locations/loc_demo_circle", "/v1/locations/loc_nope", "/v1/locations/loc_demo_polygon"],
      },
      { query: "?method=post,delete", paths: ["/v1/oauth/token"] },
      { query: "?path=/v1/oauth/token", paths: ["/v1/oauth/token"] },
      {
        query: "?path=/v1/locations/{locationId}",
        paths: ["/v1/locations/loc_demo_circle", "/v1/locations/loc_nope", "/v1/locations/loc_demo_polygon"],
      },
      {
        query: "?path=/v1/locations/loc_demo_*",
        paths: ["/v1/locations/loc_demo_circle", "/v1/locations/loc_demo_polygon"],
      },
      {
        query: "?path=/v1/**",
        paths: [
          "/v1/locations/loc_demo_circle",
          "/v1/locations/loc_nope",
          "/v1/oauth/token",
          "/v1/locations/loc_demo_polygon",
        ],
      },
      { query: "?status=4xx", paths: ["/v1/locations/loc_nope", "/v1/oauth/token"] },
      {
        query: "?status=200&status=404",
        paths: ["/v1/locations/loc_demo_circle", "/v1/locations/loc_nope", "/v1/locations/loc_demo_polygon"],
      },
      {
        query: "?since=2026-11-20T10:01:00Z&until=2026-11-20T10:02:00.000Z",
        paths: ["/v1/locations/loc_nope", "/v1/oauth/token"],
      },
      {
        query: "?since=2026-11-20T11:01:00%2B01:00",
        paths: ["/v1/locations/loc_nope", "/v1/oauth/token", "/v1/locations/loc_demo_polygon"],
      },
      { query: "?limit=2", paths: ["/v1/oauth/token", "/v1/locations/loc_demo_polygon"] },
      { query: "?method=GET&status=200&limit=1", paths: ["/v1/locations/loc_demo_polygon"] },
    ];
    for (const { query, paths } of rows) {
      it(`GET .../requests${query}`, async () => {
        const { app, clock } = buildWorld();
        await traffic(app, clock);
        const res = await journal(app, query);
        expect(res.body.requests.map((entry: { path: string }) => entry.path)).toEqual(paths);
        expect(res.body.total).toBe(paths.length);
      });
    }

    const bad = [
      {
        query: "?status=abc",
        details: 'Query parameter status should match pattern "^([1-5]\\d\\d|[1-5]xx)$"',
      },
      { query: "?method=G3T", details: 'Query parameter method should match pattern "^[A-Za-z]+$"' },
      { query: "?since=yesterday", details: 'Query parameter since should match format "datetime"' },
      { query: "?limit=0", details: "Query parameter limit should be >= 1" },
      { query: "?path=v1/events", details: 'Query parameter path should match pattern "^\\/"' },
      { query: "?sort=desc", details: "Query parameter sort is not allowed" },
    ];
    for (const { query, details } of bad) {
      it(`GET .../requests${query} is 400`, async () => {
        const { app } = buildWorld();
        expectError(await journal(app, query), 400, { key: "invalid_payload", details });
      });
    }
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
