import { describe, expect, it } from "vitest";
import { shareWithPrevious } from "../../src/platform/share-values.js";

const parsed = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe("shareWithPrevious", () => {
  it("shares equal objects and arrays of plain values, and leaves the record's JSON as it was", () => {
    const previous = parsed('{"id":"a","metadata":{},"card":{"points":0,"balance":0},"days":[1,2],"n":null}');
    const text = '{"id":"b","metadata":{},"card":{"points":0,"balance":0},"days":[1,2],"n":null}';
    const record = parsed(text);
    shareWithPrevious(record, previous);
    expect(record.metadata).toBe(previous.metadata);
    expect(record.card).toBe(previous.card);
    expect(record.days).toBe(previous.days);
    expect(JSON.stringify(record)).toBe(text);
  });

  it("keeps its own object where a value, a key or the order of keys differs, or a value is an object", () => {
    const previous = parsed('{"a":{"x":1,"y":2},"b":{"x":1},"c":[1,2],"d":{"x":{}},"e":{"x":1}}');
    const record = parsed('{"a":{"y":2,"x":1},"b":{"x":2},"c":[1,2,3],"d":{"x":{}},"e":[1]}');
    const own = { ...record };
    shareWithPrevious(record, previous);
    for (const key of Object.keys(record)) expect(record[key]).toBe(own[key]);
  });

  it("never assigns an own __proto__ key, which would set the prototype", () => {
    const previous = parsed('{"__proto__":{"x":1}}');
    const record = parsed('{"__proto__":{"x":1}}');
    shareWithPrevious(record, previous);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.hasOwn(record, "__proto__")).toBe(true);
  });
});
