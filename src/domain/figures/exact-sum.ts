import type { Int64 } from "../shared/int64.js";

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The sum of two integers, exactly: a number while it fits in 2^53, a bigint past it (the same one-form rule as
 * the service's 64-bit fields, shared/int64.ts), so a project's points can add up past what a double counts
 * without rounding. Two numbers whose sum fits cost one addition and one check, which is all the common case pays.
 */
export function addExact(a: Int64, b: Int64): Int64 {
  if (typeof a === "number" && typeof b === "number") {
    const sum = a + b;
    // A sum of two safe integers is exact whenever it is safe itself; past 2^53 the double may have rounded.
    if (Number.isSafeInteger(sum)) return sum;
  }
  const exact = BigInt(a) + BigInt(b);
  return exact >= MIN_SAFE && exact <= MAX_SAFE ? Number(exact) : exact;
}

/** The integer with the other sign (never -0, which toLocaleString would write as "-0"). */
export function negate(value: Int64): Int64 {
  if (typeof value === "bigint") return addExact(0, -value);
  return value === 0 ? 0 : -value;
}
