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
