import { gzipSync } from "node:zlib";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { signBody, verifySignature } from "../../src/domain/webhooks/envelope.js";
import {
  exactUnderKeys,
  mayLoseDigits,
  parseExact,
  stringifyExact,
  withDoubles,
} from "../../src/platform/exact-json.js";
import { v2Headers } from "../helpers/v2.js";
import { buildWorld } from "../helpers/world.js";

/** Issue 39: platform/exact-json.ts, the one place integers past 2^53 are read and written exactly. */
describe("exact JSON", () => {
  it("reads an integer a double cannot hold as a bigint, however it is written; the rest as JSON.parse", () => {
    expect(parseExact('{"a":9223372036854775807,"b":-9223372036854775808}')).toEqual({
      a: 9223372036854775807n,
      b: -9223372036854775808n,
    });
    expect(
      parseExact("[9007199254740993, 9007199254740993.0, 9.007199254740993e15, 900719925474099.3e1]"),
    ).toEqual([9007199254740993n, 9007199254740993n, 9007199254740993n, 9007199254740993n]);
    // Safe integers stay numbers, fractions and huge exponents are JSON.parse's doubles.
    expect(parseExact("[1e2, 12.5, 1e400, 9007199254740992.5, 1e-7]")).toEqual([
      100,
      12.5,
      Infinity,
      9007199254740992,
      1e-7,
    ]);
    expect(parseExact('{"a":9007199254740991}')).toEqual({ a: 9007199254740991 });
  });

  it("keeps JSON.parse's object semantics: own __proto__, the last of repeated keys, its syntax errors", () => {
    const value = parseExact(
      '{"__proto__":{"x":9223372036854775807},"k":1,"k":9223372036854775807}',
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(value.k).toBe(9223372036854775807n);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(() => parseExact('{"a":9223372036854775807,}')).toThrow(SyntaxError);
    expect(() => parseExact('{"a":9223372036854775807,}')).toThrow(/JSON/);
  });

  it("nesting deeper than its recursion goes is JSON.parse's value, for the input limits to refuse", () => {
    const deep = `${"[".repeat(20_000)}12345678901234567${"]".repeat(20_000)}`;
    expect(Array.isArray(parseExact(deep))).toBe(true);
  });

  it("looks twice only at texts with a number that may lose digits, never at ids in strings", () => {
    expect(mayLoseDigits('{"a":9007199254740993}')).toBe(true);
    expect(mayLoseDigits('{"a": [1, 2e5]}')).toBe(true);
    expect(mayLoseDigits('{"id":"linc_3e0123456789012345678","n":900719925474099}')).toBe(false);
  });

  it("writes bigints as their digits, and everything else as JSON.stringify does", () => {
    const value = { a: 9223372036854775807n, b: [1n, 2.5, null, undefined], c: "\u2028", d: undefined };
    expect(stringifyExact(value)).toBe('{"a":9223372036854775807,"b":[1,2.5,null,null],"c":"\u2028"}');
    expect(stringifyExact({ a: 1, b: "x" })).toBe(JSON.stringify({ a: 1, b: "x" }));
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => stringifyExact(circular)).toThrow(/circular/);
  });

  it("keeps bigints only where told: under some keys of a document, or nowhere", () => {
    const document = parseExact(
      '{"incentives":[{"points":{"value":9223372036854775807}}],"customers":[{"metadata":{"n":9223372036854775807}}]}',
      (value) => exactUnderKeys(value, new Set(["incentives"])),
    );
    expect(document).toEqual({
      incentives: [{ points: { value: 9223372036854775807n } }],
      customers: [{ metadata: { n: 2 ** 63 } }],
    });
    expect(withDoubles({ a: [9007199254740993n] })).toEqual({ a: [9007199254740992] });
  });
});

/** Sends the bytes as they are (superagent would write a Buffer as JSON under a JSON type). */
const raw = (req: request.Test, bytes: Buffer) =>
  req.serialize((value: unknown) => value as string).send(bytes);

describe("webhook bodies", () => {
  it("are written with their 64-bit integers as digits, and verify so (no notification carries one yet)", () => {
    const text = '{"data":{"object":{"points":{"value":9223372036854775807}}}}';
    const signature = signBody(text, "whsec_test");
    const parsed = parseExact(text);
    expect(stringifyExact(parsed)).toBe(text);
    expect(verifySignature(signature, parsed as object, "whsec_test")).toBe(true);
  });
});

describe("POST /v2/.../tiers - a body body-parser reads keeps its integers exact too", () => {
  const body = '{"name":"Huge","qualification_rules":{"type":"POINTS","min_value":9007199254740993}}';
  for (const [what, encode] of [
    ["gzip-compressed", (req: request.Test) => raw(req.set("Content-Encoding", "gzip"), gzipSync(body))],
    [
      "in utf-16",
      (req: request.Test) =>
        raw(
          req.set("Content-Type", "application/json; charset=utf-16le"),
          Buffer.from(`\ufeff${body}`, "utf16le"),
        ),
    ],
  ] as const)
    it(`${what}`, async () => {
      const world = buildWorld();
      const headers = await v2Headers(world, "loyalties");
      let req = request(world.app).post("/v2/loyalties/tier-structures/lts_d0000000000000001/tiers");
      for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
      req = req.set("Content-Type", "application/json");
      const res = await encode(req);
      expect(res.status, res.text).toBe(200);
      expect(res.text).toContain('"min_value":9007199254740993');
    });

  it("a charset the decoder lacks (utf-32) is 415 there, rather than rounded", async () => {
    const world = buildWorld();
    const headers = await v2Headers(world, "loyalties");
    let req = request(world.app).post("/v2/loyalties/tier-structures/lts_d0000000000000001/tiers");
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    const bytes = Buffer.alloc(body.length * 4);
    for (let i = 0; i < body.length; i++) bytes.writeUInt32LE(body.charCodeAt(i), i * 4);
    const res = await raw(req.set("Content-Type", "application/json; charset=utf-32le"), bytes);
    expect([400, 415]).toContain(res.status);
    expect(res.body).toMatchObject({ code: res.status });
    expect(
      world.demo.tierStructures.get("lts_d0000000000000001").tiers.map((tier) => tier.name),
    ).not.toContain("Huge");
  });
});
