// @ts-check
/**
 * JSON as the server writes it, read without rounding. The service's 64-bit fields (a tier's min_value and
 * max_value, an incentive's every, value and balance) may hold integers past 2^53, which the server writes as
 * their digits; the browser's JSON.parse would round 9223372036854775807 to 9223372036854775808 and show a number
 * the project does not hold. Here such an integer is a bigint (docs/internals/exact-integers.md).
 *
 * An answer with no number that may lose digits (the common one) is read by JSON.parse. Only one that has such a
 * number is read again by lossless-json, the parser the server itself uses, which the server hands the page as
 * its own file (`vendor/lossless-json/`, http/ui.ts) and the page loads the first time it needs it: one JSON
 * reader on both sides, exact in every browser with BigInt, and nothing to load for a project without such
 * numbers. (JSON.parse's reviver with each number's source text would do it in fewer lines, but only from Chrome
 * 114, Firefox 135 and Safari 18.4 on, and an older browser would round without a word.)
 */

/** The same test as the server's (platform/exact-json.ts): a number of 16 digits or more, or with an exponent. */
const MAY_LOSE_DIGITS = /(?:^|[:[,])[ \t\n\r]*-?(?:[0-9]{16}|[0-9]+(?:\.[0-9]+)?[eE])/;

/** Where the server serves lossless-json's ES modules, beside this file. */
const LOSSLESS_JSON = new URL("vendor/lossless-json/index.js", import.meta.url).href;

/** @type {typeof import("lossless-json") | undefined} once loaded */
let lossless;

/**
 * JSON.parse's value for `text`, with every integer a double cannot hold as a bigint of its exact value.
 * @param {string} text
 * @returns {Promise<any>}
 */
export async function readJson(text) {
  if (!MAY_LOSE_DIGITS.test(text)) return JSON.parse(text);
  lossless ??= /** @type {typeof import("lossless-json")} */ (await import(LOSSLESS_JSON));
  const { isInteger, isSafeNumber } = lossless;
  return lossless.parse(text, null, {
    parseNumber: (digits) => (isInteger(digits) && !isSafeNumber(digits) ? BigInt(digits) : Number(digits)),
    // As JSON.parse: the last of repeated keys.
    onDuplicateKey: ({ newValue }) => newValue,
  });
}

/**
 * JSON.stringify(value, null, space), with a bigint written as its digits. A value holds one only if readJson read
 * it, which loaded the writer first.
 * @param {unknown} value
 * @param {number} [space]
 * @returns {string}
 */
export function writeJson(value, space) {
  try {
    return JSON.stringify(value, null, space);
  } catch (error) {
    if (!lossless) throw error;
    return lossless.stringify(value, null, space) ?? "";
  }
}

/**
 * An integer a card's points or a range end may be compared with: a number up to 2^53, a bigint past it (as
 * readJson gives them), so that equal values are equal (`===`, a Set) whichever form a sum made them in.
 * @param {number | bigint} value
 * @returns {number | bigint}
 */
export function canonicalInteger(value) {
  if (typeof value === "bigint")
    return value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER ? Number(value) : value;
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value) : value;
}

/**
 * Orders integers of either form (and Infinity, an open-ended tier's end): `a - b` would throw on a bigint beside
 * a number.
 * @param {number | bigint} a
 * @param {number | bigint} b
 */
export function compareIntegers(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
