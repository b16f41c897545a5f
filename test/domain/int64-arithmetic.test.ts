import { describe, expect, it } from "vitest";
import { addInt64, compareInt64, fractionBetween } from "../../src/domain/shared/int64.js";

// Issue 44: what a view derives from the 64-bit fields (a card's progress towards a tier) is exact, never Number().

const MAX = 9223372036854775807n;

describe("arithmetic on 64-bit values, either form", () => {
  it("compareInt64 orders numbers, bigints and Infinity exactly, where a - b throws or rounds", () => {
    const values = [MAX, 9223372036854775806n, Number.POSITIVE_INFINITY, 1000, 2 ** 53, 9007199254740993n];
    expect(values.sort(compareInt64)).toEqual([
      1000,
      2 ** 53,
      9007199254740993n,
      9223372036854775806n,
      MAX,
      Number.POSITIVE_INFINITY,
    ]);
    expect(compareInt64(2 ** 53, 9007199254740992n)).toBe(0);
  });

  it("addInt64 is exact and gives the one form: a safe integer as a number, a bigint past it", () => {
    expect(addInt64(9223372036854775806n, 1)).toBe(MAX);
    expect(addInt64(2 ** 53 - 2, 1)).toBe(2 ** 53 - 1);
    expect(addInt64(2 ** 53 - 1, 1)).toBe(9007199254740992n);
    expect(addInt64(2 ** 53, 1)).toBe(9007199254740993n);
    expect(addInt64(9007199254740993n, -2)).toBe(2 ** 53 - 1);
    expect(addInt64(1000, 1)).toBe(1001);
  });

  it("fractionBetween takes each difference exactly: values a double cannot tell apart", () => {
    expect(fractionBetween(9223372036854775806n, 9223372036854775805n, MAX)).toBe(0.5);
    expect(fractionBetween(1450, 1000, 5000)).toBe(0.1125);
    expect(fractionBetween(1450, 0, MAX)).toBeCloseTo(1450 / 2 ** 63, 30);
    expect(fractionBetween(MAX, 0, MAX)).toBe(1);
  });
});
