import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

type App = Parameters<typeof send>[0];

function journal(app: App, query = "", project = "demo") {
  return control(app, { method: "GET", path: `/__mock/projects/${project}/requests${query}` });
}

function location(app: App, headers: Record<string, string>, id = "loc_demo_circle") {
  return send(app, { method: "GET", path: `/v1/locations/${id}?expand=none`, headers });
}

describe("request journal filters", () => {
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
    {
      // By the row that handled it: the 404 of an unknown location is still getLocation's.
      query: "?operation=getLocation",
      paths: ["/v1/locations/loc_demo_circle", "/v1/locations/loc_nope", "/v1/locations/loc_demo_polygon"],
    },
    { query: "?operation=generateToken,addMember", paths: ["/v1/oauth/token"] },
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
    {
      query: "?operation=getWidget",
      details:
        "Query parameter operation should be an operation's name: generateToken, addMember, getLocation, trackEvent, createTier, deleteIncentive, deleteBenefit",
    },
    { query: "?sort=desc", details: "Query parameter sort is not allowed" },
  ];
  for (const { query, details } of bad) {
    it(`GET .../requests${query} is 400`, async () => {
      const { app } = buildWorld();
      expectError(await journal(app, query), 400, { key: "invalid_payload", details });
    });
  }
});

describe("the operation a journal entry names, for requests answered before their route", () => {
  const names = async (app: App) =>
    (await journal(app)).body.requests.map((entry: { operation: string | null; status: number | null }) => [
      entry.operation,
      entry.status,
    ]);

  it("a fault rule's answer and the rate limit's 429 name the operation whose route the request took", async () => {
    const { app } = buildWorld();
    await control(app, {
      method: "POST",
      path: "/__mock/projects/demo/faults",
      body: { path: "/**", action: "error", status: 503, times: 3 },
    });
    await location(app, DEMO_KEYS);
    // As the routes match: letters in any case, one trailing slash (a path the contract does not spell).
    await send(app, { method: "GET", path: "/V1/Locations/loc_demo_circle/", headers: DEMO_KEYS }, () => {});
    await send(app, { method: "DELETE", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS });
    await control(app, {
      method: "PATCH",
      path: "/__mock/projects/demo/settings",
      body: { rate_limit: { limit: 1 } },
    });
    await location(app, DEMO_KEYS);
    await location(app, DEMO_KEYS);
    expect(await names(app)).toEqual([
      ["getLocation", 503],
      ["getLocation", 503],
      // No operation's route takes DELETE on that path (a 405 without the fault): none is named.
      [null, 503],
      ["getLocation", 200],
      ["getLocation", 429],
    ]);
    const filtered = await journal(app, "?operation=getLocation");
    expect(filtered.body.total).toBe(4);
  });

  it("a path of no operation names none, faulted or not", async () => {
    const { app } = buildWorld();
    await control(app, {
      method: "POST",
      path: "/__mock/projects/demo/faults",
      body: { path: "/v1/widgets", action: "error", status: 500, times: 1 },
    });
    await send(app, { method: "GET", path: "/v1/widgets", headers: DEMO_KEYS });
    await send(app, { method: "GET", path: "/v1/widgets", headers: DEMO_KEYS });
    await send(app, { method: "GET", path: "/v1/locations/", headers: DEMO_KEYS });
    expect((await names(app)).map(([operation]: [string | null]) => operation)).toEqual([null, null, null]);
  });
});
