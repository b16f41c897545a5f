import { describe, expect, it } from "vitest";
import { sourceIdOfRun } from "../../src/clients/play/replay.js";
import { RequestJournal } from "../../src/emulation/journal/journal.js";
import { wordsOf } from "../../src/http/control/demo/words.js";

describe("wordsOf: names as an audience reads them (issue 45)", () => {
  it.each([
    ["user_subscribed", "user subscribed"],
    ["loyalty_bonus", "loyalty bonus"],
    ["userSubscribed", "user subscribed"],
    ["customer.loyalty.tier.upgraded", "customer loyalty tier upgraded"],
    ["cart-abandoned", "cart abandoned"],
    ["API_call", "API call"],
    ["_", "_"],
    ["plain", "plain"],
  ])("%s reads %s", (name, words) => {
    expect(wordsOf(name)).toBe(words);
  });
});

describe("sourceIdOfRun: a scenario's people named afresh for each run", () => {
  it.each([
    ["zofia.lis@example.com", 1, "zofia.lis@example.com"],
    ["zofia.lis@example.com", 2, "zofia.lis+2@example.com"],
    ["a@b@example.com", 3, "a@b+3@example.com"],
    ["crm-0042", 2, "crm-0042-2"],
    ["@example.com", 2, "@example.com-2"],
  ])("%s, run %d: %s", (sourceId, run, fresh) => {
    expect(sourceIdOfRun(sourceId, run)).toBe(fresh);
  });
});

describe("the journal's notOperations filter", () => {
  it("leaves out the operations named, keeps the entries no row handled, and counts the limit after", () => {
    const journal = new RequestJournal(10);
    const entry = (request_id: string, operation: string | null) =>
      journal.record(
        {
          request_id,
          time: "2026-11-20T10:00:00.000Z",
          method: "POST",
          path: "/",
          operation,
          query: {},
          headers: {},
          body: null,
          status: 200,
          response_body: null,
          duration_ms: 1,
          authenticated: true,
          fault: null,
          rate_limited: false,
        },
        10,
      );
    entry("a", "trackEvent");
    entry("b", "generateToken");
    entry("c", null);
    entry("d", "generateToken");
    const ids = (limit?: number) =>
      journal.list({ notOperations: ["generateToken"], limit }).map((e) => e.request_id);
    expect(ids()).toEqual(["a", "c"]);
    expect(ids(1)).toEqual(["c"]);
  });
});
