import { describe, expect, it } from "vitest";
import { idSourceFor, randomIds, SeededIds } from "../../src/platform/ids.js";

describe("SeededIds", () => {
  const draws = (ids: SeededIds) => [
    ids.v1Id("pub"),
    ids.v2Id("lt"),
    ids.requestId(),
    ids.secretToken(),
    ids.uuid(),
    ids.randomString(8, "ABC"),
  ];

  it("the same seed and scope give the same values in the same order, in the service's formats", () => {
    const values = draws(new SeededIds("seed", "project\u0000demo"));
    expect(draws(new SeededIds("seed", "project\u0000demo"))).toEqual(values);
    const [v1, v2, requestId, secret, uuid, code] = values;
    expect(v1).toMatch(/^pub_[A-Za-z0-9]{24}$/);
    expect(v2).toMatch(/^lt_[0-9a-f]{18}$/);
    expect(requestId).toMatch(/^v-[0-9a-f]{18}$/);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(code).toMatch(/^[ABC]{8}$/);
  });

  it("a branch is a stream of its own: the same salt gives the same values, wherever the parent stood", () => {
    const parent = new SeededIds("seed", "project\u0000demo");
    const early = draws(parent.branch("past\u0000a"));
    draws(parent);
    expect(draws(parent.branch("past\u0000a"))).toEqual(early);
    expect(draws(parent.branch("past\u0000b")).filter((value, i) => value === early[i])).toEqual([]);
    expect(
      draws(new SeededIds("seed", "project\u0000demo")).filter((value, i) => value === early[i]),
    ).toEqual([]);
    expect(randomIds.branch("anything")).toBe(randomIds);
  });

  it("another seed or another scope gives other values", () => {
    const values = draws(new SeededIds("seed", "project\u0000demo"));
    for (const other of [
      new SeededIds("seed2", "project\u0000demo"),
      new SeededIds("seed", "project\u0000other"),
    ])
      expect(draws(other).filter((value, i) => value === values[i])).toEqual([]);
  });

  it("a charset over 256 characters is drawn without bias, from the stream too", () => {
    const charset = Array.from({ length: 300 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");
    const text = new SeededIds("seed", "x").randomString(50, charset);
    expect([...text].every((char) => charset.includes(char))).toBe(true);
    expect(new SeededIds("seed", "x").randomString(50, charset)).toBe(text);
  });

  it("draws the values a seed gave in 0.7.0, whatever the charset's characters", () => {
    // Drawn by 0.7.0's character-at-a-time loop; the Latin-1 fast path (issue 26) must pick the same characters from
    // the same bytes, and a charset with a character past Latin-1 keeps the loop.
    const ids = idSourceFor("golden", "demo");
    expect([
      ids.v1Id("pub"),
      ids.v1Id("cust"),
      ids.randomString(12, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"),
      ids.randomString(8, "0123456789"),
      ids.randomString(6, "ab\u0100"),
      ids.randomString(5, "xyz\u00e9"),
    ]).toEqual([
      "pub_ndV5gBBcmrGLAxxm8XhwAccp",
      "cust_annKBUv9FWY25Yv9YXmH9pAl",
      "GKW4WLUUNSRA",
      "56259409",
      "abbaaa",
      "z\u00e9zzx",
    ]);
  });

  it("without a seed the values come from the CSPRNG", () => {
    expect(randomIds.seeded).toBe(false);
    expect(randomIds.uuid()).not.toBe(randomIds.uuid());
    expect(randomIds.hex(6)).toMatch(/^[0-9a-f]{12}$/);
  });
});
