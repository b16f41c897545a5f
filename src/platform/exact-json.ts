import { parse as parseLossless, stringify as stringifyLossless } from "lossless-json";

/**
 * JSON that keeps integers past 2^53 exactly: the one place the server reads and writes them (docs/internals/exact-integers.md).
 * A JavaScript number holds every integer up to 2^53 (Number.MAX_SAFE_INTEGER + 1); past it,
 * JSON.parse rounds to the nearest double (9007199254740993 reads as ...992, 2^63-1 as 2^63), and the service's
 * 64-bit fields (spec, "Incentive": every, value, balance; the tier rules' min_value and max_value) would change
 * without a word. Here such an integer is a bigint, and written back as its digits.
 *
 * Both directions cost nothing where no such integer is: parseExact reads with JSON.parse unless the text has a
 * number a double might not hold (16 digits or more, or an exponent), and stringifyExact writes with
 * JSON.stringify, which throws on a bigint, and only then with lossless-json's writer. lossless-json (MIT,
 * josdejong/lossless-json) is a real parser with a hook for each number's text, keeps JSON.parse's `__proto__`
 * handling, and is maintained; json-bigint (last release 2020) refuses `__proto__` keys and brings bignumber.js, and
 * json-with-bigint rewrites the text with regular expressions around a marker.
 */

/**
 * A number a double may not hold exactly: an integer part of 16 digits or more, or an exponent. In a text, only a
 * number where JSON has one (after `:`, `[` or `,`): the digits and `e`s of ids inside strings are no alarm. A
 * false alarm costs a slower parse, never a wrong value.
 */
const TOKEN_MAY_LOSE_DIGITS = /[0-9]{16}|[eE]/;
const TEXT_MAY_LOSE_DIGITS = /(?:^|[:[,])[ \t\n\r]*-?(?:[0-9]{16}|[0-9]+(?:\.[0-9]+)?[eE])/;

/** The most digits an exact integer gets; a longer one is read as JSON.parse reads it (int64 needs 19). */
const MOST_DIGITS = 40;

const NUMBER = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/**
 * A JSON number's text as JSON.parse reads it, except an integer that a double cannot hold: a bigint of its exact
 * value, however written (`9007199254740993`, `9007199254740993.0`, `9.007199254740993e15`).
 */
function exactNumber(text: string): number | bigint {
  const value = Number(text);
  // No run of 16 digits and no exponent: the double is the number written, or it is no integer.
  if (!TOKEN_MAY_LOSE_DIGITS.test(text)) return value;
  const parts = NUMBER.exec(text);
  if (!parts) return value;
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = parts;
  let digits = (whole + fraction).replace(/^0+(?=[0-9])/, "");
  let scale = Number(exponent) - fraction.length;
  while (scale < 0 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    scale += 1;
  }
  // Not an integer, or longer than any integer the service takes: the double, as JSON.parse reads it.
  if (scale < 0 || digits.length + scale > MOST_DIGITS) return value;
  const exact = BigInt(`${sign}${digits}${"0".repeat(scale)}`);
  return exact >= MIN_SAFE && exact <= MAX_SAFE ? Number(exact) : exact;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** True when `text` has a number JSON.parse might round. */
export function mayLoseDigits(text: string): boolean {
  return TEXT_MAY_LOSE_DIGITS.test(text);
}

/**
 * JSON.parse's value for `text`, but with every integer a double cannot hold as an exact bigint; `keep`, given the
 * value when it may hold one, says which stay bigints (exactUnderKeys, withDoubles). The same errors as JSON.parse
 * for text that is not JSON (its SyntaxError); a repeated key keeps its last value, as with JSON.parse.
 */
export function parseExact(text: string, keep?: (value: unknown) => unknown): unknown {
  const value = JSON.parse(text) as unknown;
  if (!mayLoseDigits(text)) return value;
  let exact: unknown;
  try {
    exact = parseLossless(text, null, {
      parseNumber: exactNumber,
      onDuplicateKey: ({ newValue }) => newValue,
    });
  } catch {
    // Nesting deeper than lossless-json's recursion goes: JSON.parse's value, which the input limits refuse.
    return value;
  }
  return keep ? keep(exact) : exact;
}

const BIGINT_TEXT = /BigInt/;

/** JSON.stringify(value), with bigints written as their digits. */
export function stringifyExact(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !BIGINT_TEXT.test(error.message)) throw error;
    return stringifyLossless(value) as string;
  }
}

/** The value with every bigint made the double JSON.parse would have read; changed in place (a fresh parse's). */
export function withDoubles<T>(value: T): T {
  if (typeof value === "bigint") return Number(value) as T;
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const inner = record[key];
    if (typeof inner === "bigint" || (typeof inner === "object" && inner !== null))
      Object.defineProperty(record, key, {
        value: withDoubles(inner),
        writable: true,
        enumerable: true,
        configurable: true,
      });
  }
  return value;
}

/**
 * A document (an object of named parts) whose bigints are kept only under the root keys in `exactUnder`, and made
 * doubles everywhere else, as JSON.parse would have read them.
 */
export function exactUnderKeys<T>(document: T, exactUnder: ReadonlySet<string>): T {
  if (typeof document !== "object" || document === null || Array.isArray(document))
    return withDoubles(document);
  const record = document as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!exactUnder.has(key))
      Object.defineProperty(record, key, {
        value: withDoubles(record[key]),
        writable: true,
        enumerable: true,
        configurable: true,
      });
  return document;
}
