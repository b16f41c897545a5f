import { describe, expect, it } from "vitest";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS, OTHER_KEYS } from "../helpers/world.js";

describe("GET /v1/locations/{locationId}", () => {
  const world = buildWorld();
  const get = (id: string, headers: Record<string, string> = DEMO_KEYS) =>
    send(world.app, { method: "GET", path: `/v1/locations/${id}`, headers });

  it("returns a circle location as the service shapes it", async () => {
    const res = await get("loc_demo_circle");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: "loc_demo_circle",
      object: "location",
      name: expect.any(String),
      shape: {
        type: "circle",
        format: "distance",
        distance: {
          center: expect.stringMatching(/^geo:-?\d+(\.\d+)?,-?\d+(\.\d+)?$/),
          radius: expect.stringMatching(/^\d+(\.\d+)? ?km$/),
        },
      },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: null,
    });
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

  it("returns a GeoJSON polygon location", async () => {
    const res = await get("loc_demo_polygon");
    expect(res.status).toBe(200);
    expect(res.body.shape.type).toBe("polygon");
    expect(res.body.shape.format).toBe("geojson");
    expect(res.body.shape.geojson.type).toBe("Polygon");
    const ring = res.body.shape.geojson.coordinates[0] as number[][];
    expect(ring.length).toBeGreaterThanOrEqual(4);
    expect(ring[0]).toEqual(ring.at(-1));
  });

  it("returns a GeoJSON multipolygon location", async () => {
    const res = await get("loc_demo_multipolygon");
    expect(res.status).toBe(200);
    expect(res.body.shape.geojson.type).toBe("MultiPolygon");
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
