import type { Express } from "express";
import { describe, expect, it } from "vitest";
import { exportProject } from "../../src/domain/projects/state-export.js";
import type { InputLimits } from "../../src/http/input/limits.js";
import { createApp, createRegistry } from "../../src/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { expectError, send } from "../helpers/http.js";
import { DEMO_KEYS, defaultDocuments } from "../helpers/world.js";

/**
 * The body limits, each tested at the limit (accepted) and one past it (refused with a clear 400 or 413 that
 * changes nothing), with the defaults and with a configured value.
 */

function appWith(options: { bodyLimit?: number; inputLimits?: Partial<InputLimits> } = {}) {
  const registry = createRegistry({ clock: new ManualClock(), documents: defaultDocuments() });
  return { app: createApp({ registry, ...options }), demo: registry.get("demo") };
}

const JSON_HEADERS = { ...DEMO_KEYS, "Content-Type": "application/json" };

/** An event body of exactly `bytes` bytes (padding in a metadata string). */
function eventOfSize(bytes: number): string {
  const head = '{"event":"cart_abandoned","customer":{"source_id":"limits@example.com"},"metadata":{"pad":"';
  const tail = '"}}';
  return head + "x".repeat(bytes - head.length - tail.length) + tail;
}

/** An event body nested exactly `depth` levels deep: the body, `metadata`, then arrays. */
function eventOfDepth(depth: number): string {
  const arrays = depth - 2;
  return `{"event":"cart_abandoned","customer":{"source_id":"limits@example.com"},"metadata":{"a":${"[".repeat(arrays)}1${"]".repeat(arrays)}}}`;
}

function eventWithMetadata(metadata: Record<string, unknown>): string {
  return JSON.stringify({ event: "cart_abandoned", customer: { source_id: "limits@example.com" }, metadata });
}

async function post(app: Express, body: string, path = "/v1/events") {
  return send(app, { method: "POST", path, headers: JSON_HEADERS, body });
}

/** Sends a body that must be refused and checks the refusal changed nothing. */
async function refuses(
  target: { app: Express; demo: ReturnType<typeof appWith>["demo"] },
  body: string,
  status: number,
  details: string,
) {
  const before = JSON.stringify(exportProject(target.demo));
  const res = await post(target.app, body);
  expectError(res, status, { key: status === 413 ? "query_too_large" : "invalid_payload", details });
  expect(JSON.stringify(exportProject(target.demo))).toBe(before);
}

describe("limits of request bodies", () => {
  it("BODY_LIMIT_BYTES: a body of exactly the limit is read; one byte more is 413", async () => {
    const target = appWith({ bodyLimit: 2000 });
    expect(eventOfSize(2000)).toHaveLength(2000);
    expect((await post(target.app, eventOfSize(2000))).status).toBe(200);
    await refuses(target, eventOfSize(2001), 413, "Request body exceeds the limit of 2000 bytes");
  });

  it("JSON_DEPTH_LIMIT (default 32): 32 levels are read; 33 are 400", async () => {
    const target = appWith();
    expect((await post(target.app, eventOfDepth(32))).status).toBe(200);
    await refuses(target, eventOfDepth(33), 400, "Request body should NOT be nested deeper than 32 levels");
  });

  it("JSON_DEPTH_LIMIT set to 4: 4 levels are read; 5 are 400, arrays at the top too", async () => {
    const target = appWith({ inputLimits: { jsonDepth: 4 } });
    expect((await post(target.app, eventOfDepth(4))).status).toBe(200);
    await refuses(target, eventOfDepth(5), 400, "Request body should NOT be nested deeper than 4 levels");
    await refuses(target, "[[[[[1]]]]]", 400, "Request body should NOT be nested deeper than 4 levels");
  });

  it("STRING_LIMIT_CHARS (default 65 536): a value of the limit is read; one character more is 400", async () => {
    const target = appWith();
    expect((await post(target.app, eventWithMetadata({ note: "é".repeat(65_536) }))).status).toBe(200);
    await refuses(
      target,
      eventWithMetadata({ note: "é".repeat(65_537) }),
      400,
      "Property .metadata.note should NOT be longer than 65536 characters",
    );
    await refuses(
      target,
      eventWithMetadata({ ["k".repeat(65_537)]: 1 }),
      400,
      "Property .metadata should NOT have a property name longer than 65536 characters",
    );
  });

  it("STRING_LIMIT_CHARS set to 20: every string of every body, forms included", async () => {
    const target = appWith({ inputLimits: { stringChars: 20 } });
    const named = (name: string) => JSON.stringify({ customer: { source_id: "a@b.c", name } });
    expect(
      (await post(target.app, named("01234567890123456789"), "/v1/loyalties/camp_demo_loyalty/members"))
        .status,
    ).toBe(200);
    const before = JSON.stringify(exportProject(target.demo));
    const long = await post(
      target.app,
      named("01234567890123456789A"),
      "/v1/loyalties/camp_demo_loyalty/members",
    );
    expectError(long, 400, {
      key: "invalid_payload",
      details: "Property .customer.name should NOT be longer than 20 characters",
    });
    const form = await send(target.app, {
      method: "POST",
      path: "/v1/oauth/token",
      headers: DEMO_KEYS,
      form: true,
      body: "grant_type=client_credentials&scope=api%20loyalties%20locations",
    });
    expectError(form, 400, {
      key: "invalid_payload",
      details: "Property .scope should NOT be longer than 20 characters",
    });
    expect(JSON.stringify(exportProject(target.demo))).toBe(before);
  });

  it("METADATA_KEYS_LIMIT (default 256): 256 keys are stored; 257 are 400, in any metadata object", async () => {
    const target = appWith();
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    expect((await post(target.app, eventWithMetadata(keys(256)))).status).toBe(200);
    await refuses(
      target,
      eventWithMetadata(keys(257)),
      400,
      "Property .metadata should NOT have more than 256 properties",
    );
    const customer = JSON.stringify({
      event: "cart_abandoned",
      customer: { source_id: "limits@example.com", metadata: keys(257) },
    });
    await refuses(
      target,
      customer,
      400,
      "Property .customer.metadata should NOT have more than 256 properties",
    );
  });

  it("the control API's bodies keep to the same limits (a state import nested too deep is 400)", async () => {
    const target = appWith({ inputLimits: { jsonDepth: 8 } });
    const state = exportProject(target.demo);
    const deep = { ...state, customers: [{ ...state.customers[0], metadata: { a: [[[[[[[[1]]]]]]]] } }] };
    const before = JSON.stringify(exportProject(target.demo));
    const res = await send(
      target.app,
      {
        method: "PUT",
        path: "/__mock/projects/demo/state",
        headers: { "Content-Type": "application/json" },
        body: deep,
      },
      () => undefined,
    );
    expectError(res, 400, {
      key: "invalid_payload",
      details: "Request body should NOT be nested deeper than 8 levels",
    });
    expect(JSON.stringify(exportProject(target.demo))).toBe(before);
  });
});

describe("limits of what the journal keeps", () => {
  it("a body or answer over 64 KiB is kept as its first 64 KiB (or a note of its size), so the journal stays small", async () => {
    const target = appWith();
    const big = eventWithMetadata({ a: "x".repeat(50_000), b: "y".repeat(50_000) });
    expect((await post(target.app, big)).status).toBe(200);
    const small = eventOfSize(1000);
    expect((await post(target.app, small)).status).toBe(200);
    const [large, normal] = target.demo.journal.list();
    expect(large?.body).toBe(big.slice(0, 64 * 1024));
    expect(large?.response_body).toMatch(
      /^\[\d+ bytes, not kept: larger than the journal's 65536-byte limit\]$/,
    );
    expect(normal?.body).toEqual(JSON.parse(small));
    expect(normal?.response_body).toMatchObject({ object: "event", type: "cart_abandoned" });
  });
});
