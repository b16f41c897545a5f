import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonPieces } from "../../src/platform/json-pieces.js";

/** Reads `text` through JsonPieces in chunks cut at `cuts` (byte offsets). */
function read(text: string, cuts: number[]): unknown {
  const bytes = Buffer.from(text);
  const reader = new JsonPieces();
  let from = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    reader.push(bytes.subarray(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  return reader.end();
}

const outcome = (run: () => unknown) => {
  try {
    return { value: run() };
  } catch (error) {
    return { error: (error as Error).name };
  }
};

const root = fc.oneof(
  fc.dictionary(fc.string(), fc.oneof(fc.array(fc.jsonValue()), fc.jsonValue())),
  fc.array(fc.jsonValue()),
);
const cuts = fc.array(fc.nat(), { maxLength: 8 });

describe("JsonPieces: a document read as its bytes arrive", () => {
  it("gives what JSON.parse gives, however the bytes are cut", () => {
    fc.assert(
      fc.property(root, cuts, fc.boolean(), (value, at, spaced) => {
        const text = JSON.stringify(value, null, spaced ? 1 : undefined);
        expect(read(text, at)).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 150 },
    );
  });

  it("keeps a property named __proto__ as an own property, in the root and in the records", () => {
    const text = '{"__proto__":[{"__proto__":{"x":1}}],"m":{"__proto__":2}}';
    const value = read(text, [3, 17, 30]) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["__proto__", "m"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value).toStrictEqual(JSON.parse(text));
  });

  const BAD = [
    "{",
    "[",
    '{"a":{}',
    "[[]",
    '{"a":1,}',
    "[1,]",
    '{"a":1}x',
    '{"a" 1}',
    "[1 2]",
    '{"a":}',
    "{,}",
    "[,1]",
    '{"a":1}{}',
    '{"a":[1,,2]}',
    '{"a":"x}',
  ];
  for (const text of BAD)
    it(`refuses ${text} as JSON.parse does, whole or a byte at a time`, () => {
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => read(text, [])).toThrow(SyntaxError);
      expect(() =>
        read(
          text,
          [...text].map((_, i) => i),
        ),
      ).toThrow(SyntaxError);
    });

  it("refuses what JSON.parse refuses, cut short or spoiled anywhere", () => {
    fc.assert(
      fc.property(
        root,
        fc.nat(),
        fc.constantFrom("", ",", "}", "]", "{", "[", '"', ":", "x", " "),
        cuts,
        (value, at, insert, cut) => {
          const text = JSON.stringify(value);
          const spoiled = text.slice(0, at % (text.length + 1)) + insert;
          const strict = spoiled.trimStart().startsWith("{") || spoiled.trimStart().startsWith("[");
          const expected = outcome(() => JSON.parse(spoiled));
          if (!strict) return;
          expect(outcome(() => read(spoiled, cut))).toStrictEqual(expected);
        },
      ),
      { numRuns: 250 },
    );
  });
});
