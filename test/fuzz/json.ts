import fc from "fast-check";

/**
 * JSON as a tree we write out ourselves, so generated bodies can hold what a JavaScript object cannot carry
 * through JSON.stringify: `__proto__` as a plain key, a key twice, number literals past 64 bits (`1e400`,
 * `18446744073709551616`, `-0`) and nesting thousands of levels deep.
 */
export type Json = null | boolean | number | string | Json[] | JsonObject | RawJson;

export class JsonObject {
  constructor(readonly entries: readonly (readonly [string, Json])[]) {}
}

/** Text written as it is: a number literal JSON.stringify would never produce, or pre-built nesting. */
export class RawJson {
  constructor(readonly text: string) {}
}

export const object = (entries: readonly (readonly [string, Json | undefined])[]): JsonObject =>
  new JsonObject(entries.filter((entry): entry is [string, Json] => entry[1] !== undefined));

export function toText(value: Json): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonObject)
    return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${toText(item)}`).join(",")}}`;
  if (Array.isArray(value)) return `[${value.map(toText).join(",")}]`;
  return JSON.stringify(value);
}

/** Keys that have broken JavaScript servers: prototype pollution, shadowed methods, the empty key. */
export const HOSTILE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
  "",
  " ",
  "a.b",
  "$where",
  "\u0000",
] as const;

const NUMBER_LITERALS = [
  "-0",
  "9007199254740993",
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775809",
  "18446744073709551616",
  "1e308",
  "1e400",
  "-1e400",
  "1E-400",
  "0.1e1",
  "123456789012345678901234567890",
] as const;

export const hugeString = fc
  .constantFrom(199, 200, 201, 299, 300, 301, 4096, 65_535, 65_536, 65_537, 200_000)
  .chain((length) => fc.constantFrom("x", "é", "😀", "\u0000").map((unit) => unit.repeat(length)));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "__proto__",
      "constructor",
      "null",
      "true",
      "0",
      "-1",
      "<script>alert(1)</script>",
      "../../etc/passwd",
      "%00",
      "%",
      "\u0000",
      "\ud800",
      "\udfff\ud800",
      "\u202e",
      "DEMO-V8TK-XZ5F",
      "cust_demo_alice",
      "lts_d0000000000000001",
      "Bearer x",
    ),
  },
  { weight: 1, arbitrary: hugeString },
);

export const hostileNumber: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(0, 1, -1, 1.5, 2 ** 31 - 1, 2 ** 31, 2 ** 53, -(2 ** 53), 4999, 5000, 1e21),
  fc.integer().map((n): Json => n),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n): Json => n),
  fc.constantFrom(...NUMBER_LITERALS).map((text): Json => new RawJson(text)),
);

export const hostileScalar: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: hostileString.map((s): Json => s) },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false) },
);

const key: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
);

/** Nesting far past anything reasonable, built as text (arrays or objects), around a scalar. */
export const deepNesting: fc.Arbitrary<Json> = fc
  .record({
    depth: fc.constantFrom(31, 32, 33, 64, 1000, 20_000, 200_000),
    kind: fc.constantFrom("array", "object"),
  })
  .map(
    ({ depth, kind }) =>
      new RawJson(
        kind === "array"
          ? `${"[".repeat(depth)}1${"]".repeat(depth)}`
          : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
      ),
  );

/** Any JSON value, leaning on the hostile corners: odd keys, odd scalars, some nesting. */
export const hostileJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 12, arbitrary: hostileScalar },
    { weight: 2, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
    {
      weight: 3,
      arbitrary: fc
        .array(fc.tuple(key, tie("value")), { maxLength: 5 })
        .map((entries): Json => new JsonObject(entries)),
    },
  ),
})).value;

/** A free-form object (metadata): hostile keys, any values, sometimes more keys than any limit allows. */
export const hostileObject: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 16,
    arbitrary: fc.array(fc.tuple(key, hostileJson), { maxLength: 6 }).map((e) => new JsonObject(e)),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(99, 100, 101, 1000)
      .map((count) => new JsonObject(Array.from({ length: count }, (_, i) => [`k${i}`, i] as const))),
  },
  { weight: 1, arbitrary: deepNesting },
);

/**
 * A field that is usually right: the valid value most of the time, else a hostile one or none at all. Near-valid
 * bodies get past the first checks and reach the rules behind them.
 */
export function nearly(valid: fc.Arbitrary<Json>, hostile: fc.Arbitrary<Json> = hostileJson) {
  return fc.oneof(
    { weight: 16, arbitrary: valid },
    { weight: 1, arbitrary: hostile },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** An object of near-valid fields in shuffled order, plus now and then an extra or repeated key. */
export function nearObject(fields: Record<string, fc.Arbitrary<Json | undefined>>): fc.Arbitrary<JsonObject> {
  const names = Object.keys(fields);
  return fc
    .record({
      values: fc.tuple(...names.map((name) => fields[name] as fc.Arbitrary<Json | undefined>)),
      extras: fc.oneof(
        { weight: 4, arbitrary: fc.constant([]) },
        fc.array(fc.tuple(fc.oneof(key, fc.constantFrom(...names)), hostileJson), {
          minLength: 1,
          maxLength: 2,
        }),
      ),
      order: fc.shuffledSubarray(names, { minLength: names.length, maxLength: names.length }),
    })
    .map(({ values, extras, order }) => {
      const byName = new Map(names.map((name, i) => [name, values[i]]));
      return object([...order.map((name) => [name, byName.get(name)] as const), ...extras]);
    });
}

/** A whole body: usually the near-valid object, else anything at all, or text that is not JSON. */
export function bodyText(valid: fc.Arbitrary<Json>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: valid.map(toText) },
    { weight: 2, arbitrary: hostileJson.map(toText) },
    {
      weight: 1,
      arbitrary: valid.chain((value) => {
        const text = toText(value);
        return fc.nat({ max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut));
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom("", " ", "null", "[]", "{", "{}}", "\u0000", "\ufeff{}", "NaN") },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  );
}

/** A value any limit lets through (short strings, shallow nesting), with the hostile keys. */
const storableJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    {
      weight: 6,
      arbitrary: fc.oneof(
        fc.string({ unit: "binary", maxLength: 20 }),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom<Json>(null, true, false, "", "__proto__"),
      ),
    },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 3 }) },
    {
      weight: 2,
      arbitrary: fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }).map((e): Json => new JsonObject(e)),
    },
  ),
})).value;

/**
 * A free-form object within every limit whose keys include at least one of the prototype-polluting names:
 * what a request may store, and must then give back exactly as sent.
 */
export const storableObject: fc.Arbitrary<JsonObject> = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom("__proto__", "constructor", "prototype"), storableJson), {
      minLength: 1,
      maxLength: 3,
    }),
    fc.array(fc.tuple(key, storableJson), { maxLength: 5 }),
    fc.boolean(),
  )
  .map(([hostile, rest, first]) => new JsonObject(first ? [...hostile, ...rest] : [...rest, ...hostile]));
