import { describe, expect, it } from "vitest";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, OTHER_KEYS } from "../helpers/world.js";

describe("GET /v1/locations/{locationId}", () => {
  const world = buildWorld();
  const get = (id: string, headers: Record<string, string> = DEMO_KEYS) =>
    send(world.app, { method: "GET", path: `/v1/locations/${id}`, headers });

  // The demo fixture's values (fixtures/demo/locations.json), written out here rather than read from the file: a
  // loader or view that changed a name, a coordinate or a date would otherwise go unseen.
  it("returns a circle location as the service shapes it, every value the fixture's", async () => {
    const res = await get("loc_demo_circle");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: "loc_demo_circle",
      object: "location",
      name: "Warsaw city centre",
      shape: {
        type: "circle",
        format: "distance",
        distance: { center: "geo:52.2297,21.0122", radius: "1.5 km" },
      },
      created_at: "2025-11-02T08:00:00.000Z",
      updated_at: null,
    });
    expect(Object.keys(res.body)).toEqual(["id", "object", "name", "shape", "created_at", "updated_at"]);
  });

  it("HEAD answers GET's status and headers, Content-Length included, without the body", async () => {
    const full = await get("loc_demo_circle");
    const head = await send(world.app, {
      method: "HEAD",
      path: "/v1/locations/loc_demo_circle",
      headers: DEMO_KEYS,
    });
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(head.headers["content-length"]).toBe(String(Buffer.byteLength(JSON.stringify(full.body))));
    expect(head.text ?? "").toBe("");
  });

  it("returns a GeoJSON polygon location, every value the fixture's", async () => {
    const res = await get("loc_demo_polygon");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: "loc_demo_polygon",
      object: "location",
      name: "Berlin Mitte",
      shape: {
        type: "polygon",
        format: "geojson",
        geojson: {
          type: "Polygon",
          coordinates: [
            [
              [13.3692, 52.5124],
              [13.4013, 52.5047],
              [13.4281, 52.5163],
              [13.4168, 52.5312],
              [13.3841, 52.5298],
              [13.3692, 52.5124],
            ],
          ],
        },
      },
      created_at: "2025-11-02T08:10:00.000Z",
      updated_at: "2025-12-15T14:30:00.000Z",
    });
  });

  it("returns a GeoJSON multipolygon location, every value the fixture's", async () => {
    const res = await get("loc_demo_multipolygon");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: "loc_demo_multipolygon",
      object: "location",
      name: "Tricity stores (Gdansk and Gdynia)",
      shape: {
        type: "polygon",
        format: "geojson",
        geojson: {
          type: "MultiPolygon",
          coordinates: [
            [
              [
                [18.6443, 54.3452],
                [18.6597, 54.3452],
                [18.6597, 54.3558],
                [18.6443, 54.3558],
                [18.6443, 54.3452],
              ],
            ],
            [
              [
                [18.5302, 54.5149],
                [18.5483, 54.5149],
                [18.5483, 54.5231],
                [18.5302, 54.5231],
                [18.5302, 54.5149],
              ],
            ],
          ],
        },
      },
      created_at: "2025-11-02T08:20:00.000Z",
      updated_at: "2026-02-10T09:45:00.000Z",
    });
  });

  it("answers HEAD like GET, without a body", async () => {
    const res = await send(world.app, {
      method: "HEAD",
      path: "/v1/locations/loc_demo_circle",
      headers: DEMO_KEYS,
    });
    expect(res.status).toBe(200);
  });

  it("an unknown id is 404 not_found naming the location", async () => {
    const res = await get("loc_nope");
    expectError(res, 404, {
      key: "not_found",
      message: "Resource not found",
      details: "Cannot find location with id loc_nope",
      resource_id: "loc_nope",
      resource_type: "location",
    });
  });

  it("a location of another project does not exist for the caller: 404, never 403", async () => {
    expectError(await get("loc_demo_circle", OTHER_KEYS), 404, {
      key: "not_found",
      resource_type: "location",
    });
    expectError(await get("loc_other_circle"), 404, { key: "not_found" });
    expect((await get("loc_other_circle", OTHER_KEYS)).status).toBe(200);
  });

  it("answers on any host name, as clients point their cluster base URL at it", async () => {
    for (const host of [
      "api.voucherify.io",
      "us1.api.voucherify.io",
      "as1.download.voucherify.io",
      "mock.local:3000",
    ]) {
      const res = await get("loc_demo_circle", { ...DEMO_KEYS, Host: host });
      expect(res.status).toBe(200);
    }
  });

  it("ids with encoded characters are matched as decoded", async () => {
    const res = await get("loc%20with%20space");
    expectError(res, 404, { details: "Cannot find location with id loc with space" });
  });
});
