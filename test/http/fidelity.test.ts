import { describe, expect, it } from "vitest";
import { validateAny } from "../helpers/contract.js";
import { control } from "../helpers/control.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 15: the service's HTTP-level answers, from voucherify-openapi documentation/api-reference/errors.mdx:
 * the 405 of its "Error structure" example, the 406 of its status table, and `query_too_large` ("request body
 * payload too large or query string too large"); and a base URL ending in a slash.
 */
describe("HTTP answers as the service documents them", () => {
  it("405 is the documented body: `HTTP Method Not Allowed`, the hint, no key; and an Allow header", async () => {
    const { app } = buildWorld();
    const res = await send(app, { method: "PUT", path: "/v1/oauth/token", headers: DEMO_KEYS });
    expect(res.status).toBe(405);
    // errors.mdx's "Error structure" shows code, message and details, and FIDELITY.md the same: no `key`.
    expect(res.body).toEqual({
      code: 405,
      message: "HTTP Method Not Allowed",
      details: "PUT is not supported by this endpoint. Did you mean POST?",
      request_id: res.headers["x-request-id"],
    });
    expect(res.headers.allow).toBe("POST");
    // The documented example's own form, on a path that answers two methods.
    const two = await control(app, { method: "PUT", path: "/__mock/projects" });
    expectError(two, 405, { details: "PUT is not supported by this endpoint. Did you mean GET or POST?" });
    expect(two.body).not.toHaveProperty("key");
  });

  for (const accept of ["text/html", "application/xml", "application/json;q=0, text/plain"]) {
    it(`406 for Accept: ${accept}, before the credentials are read`, async () => {
      const { app } = buildWorld();
      for (const headers of [DEMO_KEYS, {}]) {
        const res = await send(app, {
          method: "GET",
          path: "/v1/locations/loc_demo_circle",
          headers: { ...headers, Accept: accept },
        });
        expectError(res, 406, {
          key: "not_acceptable",
          message: "Not Acceptable",
          details: `The API answers in application/json only; Accept '${accept}' does not allow it`,
        });
      }
    });
  }

  for (const accept of [
    "application/json",
    "*/*",
    "application/*",
    "text/html, application/json;q=0.5",
    "*/*;q=0.1",
  ]) {
    it(`Accept: ${accept} is answered in JSON`, async () => {
      const { app } = buildWorld();
      const res = await send(app, {
        method: "GET",
        path: "/v1/locations/loc_demo_circle",
        headers: { ...DEMO_KEYS, Accept: accept },
      });
      expect(res.status).toBe(200);
    });
  }

  it("a body over the limit is 413 query_too_large, changing nothing", async () => {
    const { app, demo } = buildWorld({ bodyLimit: 256 });
    const events = demo.events.list().length;
    const res = await send(app, {
      method: "POST",
      path: "/v1/events",
      headers: DEMO_KEYS,
      body: { event: "cart_abandoned", customer: { source_id: "x".repeat(300) } },
    });
    expectError(res, 413, {
      key: "query_too_large",
      message: "Query too large",
      details: "Request body exceeds the limit of 256 bytes",
    });
    expect(demo.events.list().length).toBe(events);
  });

  it("a base URL ending in a slash (`//v1/...`) is answered as `/v1/...`, and journaled so", async () => {
    const { app } = buildWorld();
    for (const path of ["//v1/locations/loc_demo_circle", "///v1/locations/loc_demo_circle"]) {
      // Validated against the contract as the operation it reaches.
      const res = await send(app, { method: "GET", path, headers: DEMO_KEYS }, (method, sent, status, body) =>
        validateAny(method, sent.replace(/^\/+/, "/"), status, body),
      );
      expect(res.status, path).toBe(200);
      expect(res.body.id).toBe("loc_demo_circle");
    }
    const journal = await control(app, { method: "GET", path: "/__mock/projects/demo/requests" });
    expect(journal.body.requests.map((entry: { path: string }) => entry.path)).toEqual([
      "/v1/locations/loc_demo_circle",
      "/v1/locations/loc_demo_circle",
    ]);
    // Only the slashes after the host merge: one further in is still a path the service does not have.
    const inner = await send(app, {
      method: "GET",
      path: "/v1//locations/loc_demo_circle",
      headers: DEMO_KEYS,
    });
    expectError(inner, 404, { key: "not_found" });
  });
});
