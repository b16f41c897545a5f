import { describe, expect, it } from "vitest";
import { compareAnswers } from "../../src/cli/verify/compare.js";
import type { Normalized } from "../../src/cli/verify/normalize.js";
import { STEPS } from "../../src/cli/verify/steps.js";

/**
 * The comparator's edges, each found by a mutation run (docs/internals/testing.md, "Mutation testing") to have no
 * test failing on a change to it: redirects (tested end to end in verify-hostile.test.ts, which the mutation run
 * leaves out), 400 as the first error status, the shape of nested and mixed answers, and the values a step names.
 */

const step = (name: string) => {
  const found = STEPS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(name);
  return found;
};
const headers = { "content-type": "application/json" };
const answer = (status: number, body: unknown, extra: Record<string, string> = {}): Normalized => ({
  status,
  headers: { ...headers, ...extra },
  body,
});
const ok = (body: unknown) => answer(200, body);

describe("verify: redirects are shown as such, never followed", () => {
  const location = step("getLocation");
  const to = (status: number, where?: string) =>
    answer(status, {}, where === undefined ? {} : { location: where });

  it("a redirect on one side is a redirect difference: its status and Location, against the other's status", () => {
    expect(compareAnswers(location, to(307, "https://elsewhere/v1/locations/x"), ok({}))).toEqual([
      { path: "status", kind: "redirect", target: "307 to https://elsewhere/v1/locations/x", mock: 200 },
    ]);
    expect(compareAnswers(location, ok({}), to(302, "/v1/oauth/token"))).toEqual([
      { path: "status", kind: "redirect", target: 200, mock: "302 to /v1/oauth/token" },
    ]);
  });

  it("300 is the first redirect status and 399 the last; 400 is an error", () => {
    expect(compareAnswers(location, to(300, "/a"), ok({}))).toEqual([
      { path: "status", kind: "redirect", target: "300 to /a", mock: 200 },
    ]);
    expect(compareAnswers(location, to(399, "/a"), ok({}))).toEqual([
      { path: "status", kind: "redirect", target: "399 to /a", mock: 200 },
    ]);
    expect(compareAnswers(location, to(299), ok({}))).toEqual([
      { path: "status", kind: "status", target: 299, mock: 200 },
    ]);
    expect(compareAnswers(location, to(400, "/a"), ok({}))).toEqual([
      { path: "status", kind: "status", target: 400, mock: 200 },
    ]);
  });

  it("a redirect without a Location says so", () => {
    expect(compareAnswers(location, to(301), ok({}))).toEqual([
      { path: "status", kind: "redirect", target: "301 to (no Location)", mock: 200 },
    ]);
  });

  it("two redirects alike are no difference; to another place or with another status they are one", () => {
    expect(compareAnswers(location, to(307, "/a"), to(307, "/a"))).toEqual([]);
    expect(compareAnswers(location, to(307, "/a"), to(307, "/b"))).toEqual([
      { path: "status", kind: "redirect", target: "307 to /a", mock: "307 to /b" },
    ]);
    expect(compareAnswers(location, to(307, "/a"), to(308, "/a"))).toEqual([
      { path: "status", kind: "redirect", target: "307 to /a", mock: "308 to /a" },
    ]);
  });
});

describe("verify: 400 is an error like any other", () => {
  const unknown = step("location-unknown");
  const invalid = { code: 400, key: "invalid_payload", message: "Invalid payload", details: "a" };

  it("two 400s are compared by key and message, not by shape", () => {
    expect(
      compareAnswers(unknown, answer(400, invalid), answer(400, { ...invalid, message: "Bad" })),
    ).toEqual([{ path: "body.message", kind: "value", target: "Invalid payload", mock: "Bad" }]);
  });

  it("a 400 against another error status: the status, then key and message", () => {
    const mock = answer(422, { code: 422, key: "unprocessable", message: "Invalid payload" });
    expect(compareAnswers(unknown, answer(400, invalid), mock)).toEqual([
      { path: "status", kind: "status", target: 400, mock: 422 },
      { path: "body.key", kind: "value", target: "invalid_payload", mock: "unprocessable" },
    ]);
  });

  it("with another error status, a field one side leaves out is named with the side that has it", () => {
    const mock = answer(404, { code: 404, key: "invalid_payload" });
    expect(compareAnswers(unknown, answer(400, invalid), mock)).toEqual([
      { path: "status", kind: "status", target: 400, mock: 404 },
      { path: "body.message", kind: "only-target", target: "Invalid payload", mock: undefined },
    ]);
  });
});

describe("verify: the shape of nested and mixed answers", () => {
  const location = step("getLocation");

  it("metadata at any depth counts only as an object", () => {
    const target = ok({ card: { metadata: { region: "EU", tier: 2 } } });
    const mock = ok({ card: { metadata: {} } });
    expect(compareAnswers(location, target, mock)).toEqual([]);
  });

  it("an array's items of several types are named sorted; one type in common is agreement", () => {
    expect(compareAnswers(location, ok({ items: ["a", 1] }), ok({ items: [true] }))).toEqual([
      { path: "body.items[]", kind: "type", target: "number|string", mock: "boolean" },
    ]);
    expect(compareAnswers(location, ok({ items: ["a", 1] }), ok({ items: [2] }))).toEqual([]);
  });

  it("a property the data decides may be null at any depth, but two other types still differ", () => {
    const target = ok({ card: { expiration_date: null }, name: "Zoe" });
    expect(
      compareAnswers(location, target, ok({ card: { expiration_date: "<timestamp>" }, name: "Zoe" })),
    ).toEqual([]);
    expect(compareAnswers(location, target, ok({ card: { expiration_date: null }, name: 7 }))).toEqual([
      { path: "body.name", kind: "type", target: "string", mock: "number" },
    ]);
  });

  it("nothing is named below an array one side has as null", () => {
    expect(compareAnswers(location, ok({ items: null }), ok({ items: [{ a: 1 }] }))).toEqual([
      { path: "body.items", kind: "type", target: "null", mock: "array" },
    ]);
  });
});

describe("verify: the values a step names", () => {
  it("a named value that differs is a value difference", () => {
    const target = ok({ id: "<objects.location_id>", object: "location" });
    const mock = ok({ id: "<id>", object: "location" });
    expect(compareAnswers(step("getLocation"), target, mock)).toEqual([
      { path: "body.id", kind: "value", target: "<objects.location_id>", mock: "<id>" },
    ]);
  });

  it("a named value one side lacks is named once, by the shape", () => {
    const target = ok({ id: "<objects.location_id>", object: "location" });
    expect(compareAnswers(step("getLocation"), target, ok({ object: "location" }))).toEqual([
      { path: "body.id", kind: "only-target", target: "string", mock: undefined },
    ]);
  });
});
