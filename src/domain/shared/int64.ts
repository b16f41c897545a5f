import { z } from "zod";

/**
 * The service's 64-bit integers (spec, "Incentive": "Numeric fields every, value and balance accept integers up
 * to the 64-bit range"; the Loyalty v2 beta types the tier rules' min_value and max_value as integers with no
 * maximum, so the same range). Up to 2^53 such a value is a number; past it, a bigint, read exactly from the JSON
 * text by platform/exact-json.ts and written back as its digits (docs/internals/exact-integers.md).
 */
const INT64_MAX = 2n ** 63n - 1n;

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * How 0.8.0 and earlier kept the int64 maximum: as a double, whose nearest to 9223372036854775807 (and to every
 * integer within 512 of it) is 2^63, written by JSON.stringify as 9223372036854776000. Past the int64 range, it is
 * no value a request may set; in a state file those versions wrote it stands for the maximum (olderInt64).
 */
const OLDER_MAX_TEXT = 9223372036854776000n;

/**
 * A 64-bit field's value from a state file an earlier version wrote: 2^63 as it wrote it (read exactly, or as a
 * double) is the int64 maximum it stood for; anything else is itself. Without this, a server that kept
 * 9223372036854775807 as 0.8.0 did would no longer start from its own state file.
 */
export function olderInt64(value: unknown): unknown {
  return value === OLDER_MAX_TEXT || value === 2 ** 63 ? INT64_MAX : value;
}

/** One value, one form: a number up to 2^53, a bigint past it, whichever form it came in. */
export type Int64 = number | bigint;

function canonicalInt64(value: number | bigint): Int64 {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : BigInt(value);
  return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

/*
 * Arithmetic on 64-bit values, for whatever derives a figure from them (the dashboard's views: a card's progress
 * towards a tier). Number(value) would round 9223372036854775806 to 9223372036854775808 before anything is
 * written; `a - b` throws on a bigint beside a number. `<`, `<=` and `===` need nothing: JavaScript compares a
 * bigint with a number (and with Infinity, an open-ended tier's end) exactly, and an Int64 kept as it is, never
 * through Number(), is written as its digits by every answer (stringifyExact, docs/internals/exact-integers.md).
 */

/** Orders two values exactly, either form (and Infinity): for sort, where `a - b` would throw or round. */
export function compareInt64(a: Int64, b: Int64): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The exact sum, in the one form an Int64 takes (a safe integer as a number, a bigint past it). */
export function addInt64(a: Int64, b: Int64): Int64 {
  if (typeof a === "number" && typeof b === "number" && Number.isSafeInteger(a + b)) return a + b;
  return canonicalInt64(BigInt(a) + BigInt(b));
}

/** The exact difference, in the same one form (a card's points taken off a sum when the card leaves it). */
export function subtractInt64(a: Int64, b: Int64): Int64 {
  if (typeof a === "number" && typeof b === "number" && Number.isSafeInteger(a - b)) return a - b || 0;
  return canonicalInt64(BigInt(a) - BigInt(b));
}

/**
 * How far `value` has come from `from` towards `to`: 0 at `from`, 1 at `to`. Each difference is taken exactly and
 * only their ratio is a double, so 9223372036854775806 one past 9223372036854775805 on the way to
 * 9223372036854775807 is 0.5, where the doubles of all three (one and the same) would give NaN.
 */
export function fractionBetween(value: Int64, from: Int64, to: Int64): number {
  if (typeof value === "number" && typeof from === "number" && typeof to === "number")
    return (value - from) / (to - from);
  return Number(BigInt(value) - BigInt(from)) / Number(BigInt(to) - BigInt(from));
}

/**
 * An integer from `minimum` to 2^63-1: a number, or a bigint where the JSON text held more than a double can. A
 * number past 2^53 (a library caller's) is taken as the exact value of that double, so 2^63 is refused as past
 * the range. Messages as the service's validator words them (`should be <= 9223372036854775807`).
 */
export function int64(minimum: number) {
  return z
    .custom<Int64>()
    .superRefine((value, ctx) => {
      if (typeof value !== "bigint" && (typeof value !== "number" || Number.isNaN(value))) {
        ctx.addIssue({ code: "invalid_type", expected: "number", input: value });
        return;
      }
      if (typeof value === "number" && !Number.isInteger(value)) {
        ctx.addIssue({ code: "custom", message: "should be integer", input: value });
        return;
      }
      const exact = BigInt(value);
      if (exact < BigInt(minimum))
        ctx.addIssue({ code: "too_small", origin: "bigint", minimum, inclusive: true, input: value });
      else if (exact > INT64_MAX)
        ctx.addIssue({
          code: "too_big",
          origin: "bigint",
          maximum: INT64_MAX,
          inclusive: true,
          input: value,
        });
    })
    .transform(canonicalInt64)
    .meta({ type: "integer", format: "int64", minimum });
}
