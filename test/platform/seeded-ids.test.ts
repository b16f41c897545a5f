import { describe, expect, it } from "vitest";
import { randomIds, SeededIds } from "../../src/platform/ids.js";

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

  it("without a seed the values come from the CSPRNG", () => {
    expect(randomIds.seeded).toBe(false);
    expect(randomIds.uuid()).not.toBe(randomIds.uuid());
    expect(randomIds.hex(6)).toMatch(/^[0-9a-f]{12}$/);
  });
});
