import { describe, expect, it } from "vitest";
import { type JournalEntry, RequestJournal } from "../../src/emulation/journal/journal.js";
import { Ring } from "../../src/emulation/journal/ring.js";

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

function entry(
  time: string,
  status: number | null,
  method = "GET",
  path = "/v1/x",
  operation: string | null = null,
): JournalEntry {
  return {
    request_id: `v-${time}`,
    time,
    method,
    path,
    operation,
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

  it("filters by the operation that handled the request; one no operation handled matches none", () => {
    const journal = new RequestJournal(10);
    journal.record(entry("2026-01-01T00:00:00.000Z", 200, "GET", "/v1/locations/a", "getLocation"), 10);
    journal.record(entry("2026-01-01T00:01:00.000Z", 404, "GET", "/v1/nothing"), 10);
    journal.record(entry("2026-01-01T00:02:00.000Z", 200, "POST", "/v1/events", "trackEvent"), 10);
    const times = (list: JournalEntry[]) => list.map((e) => e.time.slice(14, 16));
    expect(times(journal.list({ operations: ["trackEvent"] }))).toEqual(["02"]);
    expect(times(journal.list({ operations: ["getLocation", "trackEvent"] }))).toEqual(["00", "02"]);
  });
});

describe("RequestJournal's sharing of equal values", () => {
  it("hands back the kept object only for headers with the same names, order and texts", () => {
    const journal = new RequestJournal(10);
    const first = { host: "x", "x-app-id": "a" };
    expect(journal.sharedHeaders(first)).toBe(first);
    expect(journal.sharedHeaders({ host: "x", "x-app-id": "a" })).toBe(first);
    const reordered = { "x-app-id": "a", host: "x" };
    expect(journal.sharedHeaders(reordered)).toBe(reordered);
    const other = { "x-app-id": "b", host: "x" };
    expect(journal.sharedHeaders(other)).toBe(other);
    const longer = { "x-app-id": "b", host: "x", accept: "*/*" };
    expect(journal.sharedHeaders(longer)).toBe(longer);
    const shorter = { "x-app-id": "b", host: "x" };
    expect(journal.sharedHeaders(shorter)).toBe(shorter);
    const listed = { "x-app-id": "b", host: "x", "set-cookie": ["a"] };
    expect(journal.sharedHeaders(listed)).toBe(listed);
    const listedAgain = { "x-app-id": "b", host: "x", "set-cookie": ["a"] };
    expect(journal.sharedHeaders(listedAgain)).toBe(listedAgain);
  });

  it("hands back the kept text of the same kind only when equal", () => {
    const journal = new RequestJournal(10);
    const answer = JSON.stringify({ id: "loc_1" });
    expect(journal.shared(answer, "answer")).toBe(answer);
    expect(journal.shared(JSON.stringify({ id: "loc_1" }), "answer")).toBe(answer);
    expect(journal.shared("/v1/x", "path")).toBe("/v1/x");
    expect(journal.shared("{}", "answer")).toBe("{}");
    expect(journal.shared(undefined, "answer")).toBeUndefined();
  });
});
