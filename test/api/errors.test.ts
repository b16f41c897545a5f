import request from "supertest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULTS } from "../../src/config/settings.js";
import { baseApp, finishApp } from "../../src/http/app.js";
import { getInput } from "../../src/http/context.js";
import { jsonBody } from "../../src/http/input/body.js";
import { validate } from "../../src/http/input/validate.js";
import { requireAuth } from "../../src/http/operations/require-auth.js";
import { operation } from "../../src/http/operations/table.js";
import { expectError, send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/** FIDELITY.md "Everywhere", row by row, on the routes the server has. */
describe("error model on real routes", () => {
  const { app } = buildWorld({ bodyLimit: 1024 });

  const rows = [
    {
      method: "GET",
      path: "/nope",
      headers: {},
      status: 404,
      key: "not_found",
      details: "Cannot GET /nope: no such endpoint",
    },
    {
      method: "GET",
      path: "/nope",
      headers: DEMO_KEYS,
      status: 404,
      key: "not_found",
      details: "Cannot GET /nope: no such endpoint",
    },
    {
      method: "POST",
      path: "/v1/unknown/thing",
      headers: DEMO_KEYS,
      status: 404,
      key: "not_found",
      details: /POST \/v1\/unknown\/thing/,
    },
    // Issue 15: GET /v1/locations is the real service's list-locations, which we do not emulate: 501, not 404.
    {
      method: "GET",
      path: "/v1/locations",
      headers: DEMO_KEYS,
      status: 501,
      key: "not_emulated",
      details: "GET /v1/locations (list-locations) is not emulated by loyalty-mock",
    },
    {
      method: "GET",
      path: "/v3/locations/loc_demo_circle",
      headers: DEMO_KEYS,
      status: 404,
      key: "not_found",
      details: /no such endpoint/,
    },
    {
      method: "POST",
      path: "/v1/locations/loc_demo_circle",
      headers: DEMO_KEYS,
      status: 405,
      key: null,
      details: "POST is not supported by this endpoint. Did you mean GET?",
    },
    {
      method: "PUT",
      path: "/v1/locations/loc_demo_circle",
      headers: {},
      status: 405,
      key: null,
      details: "PUT is not supported by this endpoint. Did you mean GET?",
    },
    {
      method: "DELETE",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      status: 405,
      key: null,
      details: "DELETE is not supported by this endpoint. Did you mean POST?",
    },
    {
      method: "GET",
      path: "/v1/oauth/token",
      headers: {},
      status: 405,
      key: null,
      details: "GET is not supported by this endpoint. Did you mean POST?",
    },
    {
      method: "OPTIONS",
      path: "/v1/oauth/token",
      headers: {},
      status: 405,
      key: null,
      details: "OPTIONS is not supported by this endpoint. Did you mean POST?",
    },
    {
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      headers: {},
      status: 401,
      key: "unauthorized",
      details:
        "Missing credentials: send X-App-Id and X-App-Token headers, or an OAuth token in the Authorization or X-Service-OAuth header",
    },
    {
      method: "GET",
      path: "/v1/locations/%E0%A4%A",
      headers: DEMO_KEYS,
      status: 400,
      key: "bad_request",
      details: "The request path is not validly percent-encoded",
    },
  ] as const;

  for (const row of rows) {
    it(`${row.method} ${row.path} ${Object.keys(row.headers).length ? "with keys" : "without keys"} is ${row.status} ${row.key ?? "without a key"}`, async () => {
      const res = await send(app, { method: row.method, path: row.path, headers: row.headers });
      if (row.key === null) {
        // The documented 405 (errors.mdx, "Error structure") has code, message and details, no key.
        expectError(res, row.status, { details: row.details });
        expect(res.body).not.toHaveProperty("key");
      } else expectError(res, row.status, { key: row.key, details: row.details });
    });
  }

  it("405 names the allowed methods in an Allow header", async () => {
    const res = await send(app, {
      method: "DELETE",
      path: "/v1/locations/loc_demo_circle",
      headers: DEMO_KEYS,
    });
    expect(res.headers.allow).toBe("GET, HEAD");
  });

  it("POST /v1/oauth/token - a JSON body is 400 invalid_payload, not 415", async () => {
    const res = await send(app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      body: { grant_type: "client_credentials", scope: "api" },
    });
    expectError(res, 400, {
      key: "invalid_payload",
      message: "Invalid payload",
      details:
        "Request body must be application/x-www-form-urlencoded; Content-Type 'application/json' is not accepted",
    });
  });

  // Issue 15: the documented key for an oversized body is query_too_large (errors.mdx).
  it("POST /v1/oauth/token - a body over the limit is 413 query_too_large", async () => {
    const res = await send(app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      form: true,
      body: `grant_type=client_credentials&scope=${"api%20".repeat(400)}`,
    });
    expectError(res, 413, {
      key: "query_too_large",
      message: "Query too large",
      details: "Request body exceeds the limit of 1024 bytes",
    });
  });

  it("POST /v1/oauth/token - a form with too many fields is 413 query_too_large", async () => {
    const fields = Array.from({ length: 101 }, (_, i) => `f${i}=1`).join("&");
    const res = await send(app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      form: true,
      body: fields,
    });
    expectError(res, 413, { key: "query_too_large", details: "The form body has more than 100 fields" });
  });

  it("a Content-Type on a bodiless GET is ignored, as the official client sends one on every call", async () => {
    const res = await send(app, {
      method: "GET",
      path: "/v1/locations/loc_demo_circle",
      headers: { ...DEMO_KEYS, "Content-Type": "application/xml" },
    });
    expect(res.status).toBe(200);
  });

  it("request ids are unique per request and never taken from the client", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await send(app, {
        method: "GET",
        path: "/nope",
        headers: { "X-Request-Id": "client-chosen" },
      });
      ids.add(res.body.request_id);
    }
    expect(ids.size).toBe(20);
    expect([...ids].every((id) => /^v-[0-9a-f]{18}$/.test(id))).toBe(true);
  });
});

/**
 * JSON body handling belongs to the foundation, but the JSON operations arrive with their own issues; a probe route
 * built from the same middleware (and the same error middleware) proves each row now.
 */
describe("error model for JSON bodies (probe route over the real middleware)", () => {
  const world = buildWorld();
  const probeSchema = z.object({
    params: z.object({}),
    body: z.strictObject({
      event: z.string().min(1).max(300),
      customer: z.object({ source_id: z.string() }),
      kind: z.enum(["A", "B"]).optional(),
      count: z.number().int().min(0).optional(),
    }),
  });
  const app = baseApp(DEFAULTS);
  app.post(
    "/probe",
    requireAuth(world.registry, operation("trackEvent").auth),
    ...jsonBody(64),
    validate(probeSchema),
    (_req, res) => {
      res.json({ ok: true, input: getInput(res) });
    },
  );
  app.post("/boom", () => {
    throw new Error("secret internal detail");
  });
  const probe = finishApp(app, 64);

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    send(probe, { method: "POST", path: "/probe", headers: { ...DEMO_KEYS, ...headers }, body });

  it("accepts a valid body and hands the parsed input on", async () => {
    // The probe's success is no operation of the contract, so it skips send()'s contract check.
    const res = await request(probe)
      .post("/probe")
      .set(DEMO_KEYS)
      .send({ event: "e", customer: { source_id: "c" } });
    expect(res.status).toBe(200);
    expect(res.body.input.body).toEqual({ event: "e", customer: { source_id: "c" } });
  });

  const invalid: [string, unknown, string][] = [
    ["wrong type", { event: "e", customer: "c" }, "Property .customer should be object"],
    ["missing property", { event: "e" }, "Property .customer is required"],
    ["nested missing property", { event: "e", customer: {} }, "Property .customer.source_id is required"],
    [
      "unknown enum value",
      { event: "e", customer: { source_id: "c" }, kind: "C" },
      "Property .kind should be equal to one of the allowed values: A, B",
    ],
    [
      "empty string",
      { event: "", customer: { source_id: "c" } },
      "Property .event should NOT be shorter than 1 characters",
    ],
    [
      "integer rule",
      { event: "e", customer: { source_id: "c" }, count: 1.5 },
      "Property .count should be integer",
    ],
    ["minimum", { event: "e", customer: { source_id: "c" }, count: -1 }, "Property .count should be >= 0"],
    [
      "unknown property",
      { event: "e", customer: { source_id: "c" }, extra: 1 },
      "Property .extra is not allowed",
    ],
    ["array body", [1, 2], "Request body should be object"],
  ];
  for (const [name, body, details] of invalid) {
    it(`${name} is 400 invalid_payload with details naming the property`, async () => {
      expectError(await post(body), 400, { key: "invalid_payload", message: "Invalid payload", details });
    });
  }

  it("a missing body is 400 invalid_payload", async () => {
    const res = await send(probe, { method: "POST", path: "/probe", headers: DEMO_KEYS });
    expectError(res, 400, { key: "invalid_payload", details: "Request body should be object" });
  });

  it("malformed JSON is 400 invalid_payload", async () => {
    const res = await post('{"event": "e",', { "Content-Type": "application/json" });
    expectError(res, 400, {
      key: "invalid_payload",
      message: "Invalid payload",
      details: /^Request body is not valid JSON: /,
    });
  });

  it("a JSON scalar is refused like malformed JSON (objects and arrays only)", async () => {
    const res = await post('"just a string"', { "Content-Type": "application/json" });
    expectError(res, 400, { key: "invalid_payload", details: /^Request body is not valid JSON/ });
  });

  it("a body in another type than JSON is 415 unsupported_media_type", async () => {
    const res = await post("event=e", { "Content-Type": "text/plain" });
    expectError(res, 415, {
      key: "unsupported_media_type",
      message: "Unsupported media type",
      details: "Content-Type 'text/plain' is not supported; send application/json",
    });
  });

  it("a JSON body in an unsupported charset is 415", async () => {
    const res = await post("{}", { "Content-Type": "application/json; charset=koi8-r" });
    expectError(res, 415, { key: "unsupported_media_type" });
  });

  it("a body over the limit is 413 query_too_large", async () => {
    const res = await post({ event: "e".repeat(100), customer: { source_id: "c" } });
    expectError(res, 413, {
      key: "query_too_large",
      details: "Request body exceeds the limit of 64 bytes",
    });
  });

  it("authentication comes before input validation", async () => {
    const res = await send(probe, {
      method: "POST",
      path: "/probe",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expectError(res, 401, { key: "unauthorized" });
  });

  it("an unexpected failure is a 500 in the service's shape, without a stack or the error's text", async () => {
    const res = await send(probe, { method: "POST", path: "/boom" });
    expectError(res, 500, { key: "internal_error", message: "Internal Server Error" });
    expect(JSON.stringify(res.body)).not.toContain("secret internal detail");
    expect(JSON.stringify(res.body)).not.toContain("at ");
  });
});
