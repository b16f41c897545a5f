import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { send } from "../helpers/http.js";
import { expectRefusedUnchanged, v2Headers } from "../helpers/v2.js";
import { buildWorld, DEMO_KEYS, storeSnapshot } from "../helpers/world.js";

/**
 * Issue 44: a number JSON cannot carry back (`1e400`, an integer of 400 digits: JSON.parse reads both as
 * Infinity, which JSON.stringify writes as null) in free-form metadata was stored, and answered as null. It is
 * refused where it is, in the words a typed field refuses it with (`Property .latency_ms should be number`), and
 * nothing changes. Bodies are sent as text: JSON.stringify cannot write such a number.
 */

const JSON_TYPE = { "Content-Type": "application/json" };
const HUGE = "9".repeat(400);
const REFUSED = { key: "invalid_payload", message: "Invalid payload" };

describe("a number JSON cannot carry, in free-form metadata of an operation's body", () => {
  it.each([
    [
      "an event's metadata",
      "/v1/events",
      '{"event":"user_subscribed","customer":{"source_id":"lost-1"},"metadata":{"plan":"pro","size":1e400}}',
      "Property .metadata.size should be number",
    ],
    [
      "deep in an event's metadata, negative",
      "/v1/events",
      '{"event":"user_subscribed","customer":{"source_id":"lost-1"},"metadata":{"plan":"pro","a":[1,{"b":-1e400}]}}',
      "Property .metadata.a[1].b should be number",
    ],
    [
      "an event's customer metadata, 400 digits",
      "/v1/events",
      `{"event":"user_subscribed","customer":{"source_id":"lost-1","metadata":{"n":${HUGE}}},"metadata":{"plan":"pro"}}`,
      "Property .customer.metadata.n should be number",
    ],
    [
      "a publication's metadata",
      "/v1/loyalties/camp_demo_loyalty/members",
      '{"customer":{"source_id":"lost-2"},"metadata":{"origin":1E+400}}',
      "Property .metadata.origin should be number",
    ],
    [
      "a member's customer metadata",
      "/v1/loyalties/camp_demo_loyalty/members",
      `{"customer":{"source_id":"lost-2","metadata":{"n":[${HUGE}]}}}`,
      "Property .customer.metadata.n[0] should be number",
    ],
  ])("%s: 400 naming the path, nothing stored", async (_, path, body, details) => {
    const world = buildWorld();
    const before = storeSnapshot(world.demo);
    const res = await send(world.app, {
      method: "POST",
      path,
      headers: { ...DEMO_KEYS, ...JSON_TYPE },
      body,
    });
    expect(res.body).toEqual({ code: 400, ...REFUSED, details, request_id: res.body.request_id });
    expect(storeSnapshot(world.demo)).toBe(before);
  });

  it("a tier's metadata (read with its 64-bit integers exact): 400, the structure as it was", async () => {
    const world = buildWorld();
    const headers = { ...(await v2Headers(world)), ...JSON_TYPE };
    await expectRefusedUnchanged(
      world,
      () =>
        send(world.app, {
          method: "POST",
          path: "/v2/loyalties/tier-structures/lts_d0000000000000001/tiers",
          headers,
          body: `{"name":"Lost","qualification_rules":{"type":"POINTS","min_value":900000000},"metadata":{"m":[${HUGE}]}}`,
        }),
      400,
      { ...REFUSED, details: "Property .metadata.m[0] should be number" },
    );
  });

  it("a large number a double holds is kept, as before: 1e300 and 400 digits after the point", async () => {
    const world = buildWorld();
    const res = await send(world.app, {
      method: "POST",
      path: "/v1/events",
      headers: { ...DEMO_KEYS, ...JSON_TYPE },
      body: `{"event":"user_subscribed","customer":{"source_id":"kept"},"metadata":{"plan":"pro","big":1e300,"long":0.${HUGE}}}`,
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('"metadata":{"plan":"pro","big":1e+300,"long":1}');
  });

  it("a fault rule's headers keep their own rule: a header value should be string", async () => {
    const world = buildWorld();
    const res = await control(world.app, {
      method: "POST",
      path: "/__mock/projects/demo/faults",
      headers: JSON_TYPE,
      body: '{"path":"/v1/events","action":"error","status":503,"headers":{"Retry-After":1e400}}',
    });
    expect(res.body).toMatchObject({ ...REFUSED, details: "Property .headers.Retry-After should be string" });
    expect(world.demo.faults.list()).toEqual([]);
  });

  it.each(["null", "[]", '"x"', "1"])(
    "a fault rule's headers that are %s are refused as no object, not a 500",
    async (headers) => {
      const world = buildWorld();
      const res = await control(world.app, {
        method: "POST",
        path: "/__mock/projects/demo/faults",
        headers: JSON_TYPE,
        body: `{"path":"/v1/locations/loc_demo_circle","action":"error","headers":${headers}}`,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ ...REFUSED, details: "Property .headers should be object" });
      expect(world.demo.faults.list()).toEqual([]);
    },
  );
});
