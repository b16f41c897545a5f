import { describe, expect, it } from "vitest";
import { attribute } from "../src/domain/auth/attribution.js";
import { compilePathPattern } from "../src/domain/shared/path-pattern.js";
import { FaultRules } from "../src/emulation/faults/fault-rules.js";
import { type JournalEntry, RequestJournal } from "../src/emulation/journal/journal.js";
import { Ring } from "../src/emulation/journal/ring.js";
import { RateLimiter } from "../src/emulation/rate-limiter.js";
import { faultInputSchema } from "../src/http/control/fault-input.js";
import { credentialsFromHeaders } from "../src/http/credentials.js";
import { redactBody, redactHeaders } from "../src/http/traffic/redact.js";
import { buildWorld } from "./helpers/world.js";

describe("Ring", () => {
  it("keeps the newest items, oldest first, and resizes keeping the newest", () => {
    const ring = new Ring<number>(3);
    for (let i = 1; i <= 5; i++) ring.push(i);
    expect(ring.toArray()).toEqual([3, 4, 5]);
    ring.resize(2);
    expect(ring.toArray()).toEqual([4, 5]);
    ring.resize(4);
    ring.push(6);
    ring.push(7);
    ring.push(8);
    expect(ring.toArray()).toEqual([5, 6, 7, 8]);
    ring.resize(0);
    ring.push(9);
    expect(ring.toArray()).toEqual([]);
    expect(ring.clear()).toBe(0);
  });
});

describe("path patterns", () => {
  const rows: [string, string, boolean][] = [
    ["/v1/events", "/v1/events", true],
    ["/v1/events", "/v1/events/", false],
    ["/v1/locations/{locationId}", "/v1/locations/loc_1", true],
    ["/v1/locations/{locationId}", "/v1/locations/", false],
    ["/v1/locations/{locationId}", "/v1/locations/a/b", false],
    ["/v1/locations/loc_*", "/v1/locations/loc_1", true],
    ["/v1/locations/loc_*", "/v1/locations/loc_1/x", false],
    ["/v2/**", "/v2/loyalties/incentives/linc_1", true],
    ["/v2/**", "/v1/events", false],
    ["/v1/loyalties/(x)", "/v1/loyalties/(x)", true],
    ["/v1/a.b", "/v1/aXb", false],
  ];
  for (const [pattern, path, expected] of rows) {
    it(`${pattern} ${expected ? "matches" : "does not match"} ${path}`, () => {
      expect(compilePathPattern(pattern)(path)).toBe(expected);
    });
  }
});

function entry(time: string, status: number | null, method = "GET", path = "/v1/x"): JournalEntry {
  return {
    request_id: `v-${time}`,
    time,
    method,
    path,
    query: {},
    headers: {},
    body: null,
    status,
    response_body: null,
    duration_ms: 0,
    authenticated: true,
    fault: null,
    rate_limited: false,
  };
}

describe("RequestJournal", () => {
  it("filters by status class, method, path and time, and limits to the newest", () => {
    const journal = new RequestJournal(10);
    journal.record(entry("2026-01-01T00:00:00.000Z", 200), 10);
    journal.record(entry("2026-01-01T00:01:00.000Z", 404, "POST", "/v1/y"), 10);
    journal.record(entry("2026-01-01T00:02:00.000Z", null), 10);
    const times = (list: JournalEntry[]) => list.map((e) => e.time.slice(14, 16));
    expect(times(journal.list({ statuses: ["4xx"] }))).toEqual(["01"]);
    expect(times(journal.list({ statuses: ["200", "404"] }))).toEqual(["00", "01"]);
    expect(times(journal.list({ methods: ["get"] }))).toEqual(["00", "02"]);
    expect(times(journal.list({ path: "/v1/y" }))).toEqual(["01"]);
    expect(times(journal.list({ since: Date.parse("2026-01-01T00:01:00.000Z") }))).toEqual(["01", "02"]);
    expect(times(journal.list({ until: Date.parse("2026-01-01T00:00:59.000Z") }))).toEqual(["00"]);
    expect(times(journal.list({ limit: 1 }))).toEqual(["02"]);
  });
});

describe("redaction", () => {
  it("replaces secret headers, keeping an Authorization scheme, and secret body properties at any depth", () => {
    expect(
      redactHeaders({
        "x-app-token": "s",
        authorization: "Bearer abc",
        "x-service-oauth": "abc",
        "x-app-id": "id",
        none: undefined,
      }),
    ).toEqual({
      "x-app-token": "[redacted]",
      authorization: "Bearer [redacted]",
      "x-service-oauth": "[redacted]",
      "x-app-id": "id",
    });
    const body = { access_token: "t", nested: [{ access_token: "u", keep: 1 }] };
    expect(redactBody(body)).toEqual({
      access_token: "[redacted]",
      nested: [{ access_token: "[redacted]", keep: 1 }],
    });
    expect(body.access_token).toBe("t");
    const hostile = redactBody(JSON.parse('{"__proto__":{"polluted":1}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(hostile)).toBe(Object.prototype);
    expect(JSON.stringify(hostile)).toBe('{"__proto__":{"polluted":1}}');
  });
});

describe("RateLimiter", () => {
  const rule = { limit: 2, window_seconds: 10 };
  it("opens a window with the first request and refuses past the limit until it ends", () => {
    const limiter = new RateLimiter();
    expect(limiter.take(rule, 1000)).toMatchObject({ allowed: true, remaining: 1, resetAtMs: 11_000 });
    expect(limiter.take(rule, 5000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take(rule, 10_999)).toMatchObject({ allowed: false, remaining: 0, resetAtMs: 11_000 });
    expect(limiter.take(rule, 11_000)).toMatchObject({ allowed: true, remaining: 1, resetAtMs: 21_000 });
  });

  it("a clock moved back before the window opens a new one", () => {
    const limiter = new RateLimiter();
    limiter.take(rule, 50_000);
    limiter.take(rule, 50_000);
    expect(limiter.take(rule, 40_000)).toMatchObject({ allowed: true, remaining: 1 });
  });
});

describe("FaultRules", () => {
  it("the first matching rule is taken and retires after its last match", () => {
    const rules = new FaultRules();
    const once = rules.add(faultInputSchema.parse({ path: "/v1/**", action: "drop", times: 1 }), "t", 10);
    const always = rules.add(
      faultInputSchema.parse({ method: "get", path: "/v1/{x}", action: "delay", latency_ms: 5 }),
      "t",
      10,
    );
    expect(rules.take("POST", "/v2/x")).toBeUndefined();
    expect(rules.take("GET", "/v1/x")?.id).toBe(once.id);
    expect(rules.take("GET", "/v1/x")?.id).toBe(always.id);
    expect(rules.take("POST", "/v1/x")).toBeUndefined();
    expect(rules.list().map((fault) => [fault.id, fault.matched])).toEqual([[always.id, 1]]);
  });
});

describe("attribution", () => {
  it("by app id (valid or not), then by an issued token; nothing for strangers", () => {
    const { registry, demo } = buildWorld();
    expect(attribute(registry, { appId: "demo-app-id", appToken: "demo-app-token" })).toEqual({
      project: demo,
      verified: true,
    });
    expect(attribute(registry, { appId: "demo-app-id", appToken: "nope" })).toEqual({
      project: demo,
      verified: false,
    });
    expect(attribute(registry, { appId: "demo-app-id" })).toEqual({ project: demo, verified: false });
    expect(attribute(registry, { appId: "who", appToken: "demo-app-token" })).toBeUndefined();
    expect(attribute(registry, credentialsFromHeaders({ authorization: "Bearer nope" }))).toBeUndefined();
    expect(attribute(registry, {})).toBeUndefined();
  });
});
