import { describe, expect, it } from "vitest";
import { type RawRequest, rawRequest } from "../helpers/raw-http.js";
import { sendCase, stillServing, useFuzzWorld } from "./harness.js";

/**
 * Every failure the generated-input suite found, kept as a named test with the smallest input that showed it
 * (the fix is named in the commit that added it). Each case also passes the suite's shared checks: no 5xx, the
 * error object with a request id, the state unchanged by a refusal, prototypes untouched, no escaped exception.
 */

const KEYS: [string, string][] = [
  ["X-App-Id", "demo-app-id"],
  ["X-App-Token", "demo-app-token"],
];
const JSON_TYPE: [string, string] = ["Content-Type", "application/json"];
const deepArray = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

const fuzz = useFuzzWorld();

async function refused(request: RawRequest, status: number, key: string, details?: RegExp) {
  const { response } = await sendCase(fuzz.world, request, fuzz.uncaught);
  expect(response.status, response.text).toBe(status);
  expect(response.body).toMatchObject({ code: status, key });
  if (details) expect((response.body as { details: string }).details).toMatch(details);
  return response;
}

describe("regressions found by generated input", () => {
  it("a control character in a header value is 400 bad_request in the error object, not Node's bare 400", async () => {
    await refused(
      { method: "POST", target: "/v1/oauth/token", headers: [...KEYS, ["EyOQ", "\u0004~#\u0017A}\u0001"]] },
      400,
      "bad_request",
      /not valid HTTP/,
    );
  });

  it("a request head over the size limit is 431 in the error object", async () => {
    await refused(
      {
        method: "GET",
        target: "/v1/locations/loc_demo_circle",
        headers: [...KEYS, ["X-Long", "y".repeat(20_000)]],
      },
      431,
      "request_header_fields_too_large",
    );
  });

  it("Expect: something-else is 417 in the error object, not an empty answer", async () => {
    await refused(
      {
        method: "GET",
        target: "/v1/locations/loc_demo_circle",
        headers: [...KEYS, ["Expect", "something-else"]],
      },
      417,
      "expectation_failed",
    );
  });

  it("CONNECT gets an answer instead of a closed connection", async () => {
    await refused(
      { method: "CONNECT", target: "127.0.0.1:443", headers: KEYS },
      400,
      "bad_request",
      /CONNECT/,
    );
  });

  it("an HTTP/1.1 request without Host is 400 in the error object", async () => {
    const bytes = Buffer.from("GET /v1/locations/loc_demo_circle HTTP/1.1\r\nX-App-Id: demo-app-id\r\n\r\n");
    const response = await rawRequest(fuzz.world.port, bytes);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 400, key: "bad_request" });
    expect(response.headers["x-request-id"]).toMatch(/^v-[0-9a-f]{18}$/);
  });

  it("If-None-Match: * still gets the location, not an empty 304", async () => {
    const { response } = await sendCase(
      fuzz.world,
      { method: "GET", target: "/v1/locations/loc_demo_circle", headers: [...KEYS, ["If-None-Match", "*"]] },
      fuzz.uncaught,
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: "loc_demo_circle" });
  });

  it("metadata nested 100 000 levels deep is 400 and no longer crashes the journal's copy", async () => {
    const body = `{"customer":{"source_id":"x"},"metadata":{"a":${deepArray(100_000)}}}`;
    const target = "/v1/loyalties/camp_demo_loyalty/members";
    await refused(
      { method: "POST", target, headers: [...KEYS, JSON_TYPE], body },
      400,
      "invalid_payload",
      /nested/,
    );
    await stillServing(fuzz.world);
  });

  it("a string over the limit before deep nesting still reports the nesting (the body must not be walked)", async () => {
    const body = `{"customer":{"source_id":"x","name":"${"x".repeat(70_000)}"},"metadata":${deepArray(5000)}}`;
    const target = "/v1/loyalties/camp_demo_loyalty/members";
    await refused(
      { method: "POST", target, headers: [...KEYS, JSON_TYPE], body },
      400,
      "invalid_payload",
      /nested/,
    );
  });

  it("a fault rule whose header value holds a line break is refused, not a 500 on every matching request", async () => {
    const body = '{"path":"/v1/**","action":"error","status":503,"headers":{"X-Bad":"a\\nb"}}';
    await refused(
      { method: "POST", target: "/__mock/projects/demo/faults", headers: [JSON_TYPE], body },
      400,
      "invalid_payload",
      /Property \.headers\.X-Bad should be a header value/,
    );
  });

  it("a fault rule with a Trailer header is refused, not an answer that never completes", async () => {
    const body = '{"path":"/v1/**","action":"error","status":503,"headers":{"Trailer":"a\\u0000b"}}';
    await refused(
      { method: "POST", target: "/__mock/projects/demo/faults", headers: [JSON_TYPE], body },
      400,
      "invalid_payload",
      /Trailer is not allowed/,
    );
  });
});
