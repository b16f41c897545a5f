import { describe, expect, it } from "vitest";
import { deepFreeze, freezeInSlices } from "../../src/platform/deep-freeze.js";

describe("deepFreeze", () => {
  it("freezes every object and array it reaches, own keys only, __proto__ keys included", () => {
    const record = JSON.parse(
      '{"a":{"b":[1,{"c":{}}]},"list":[[],{"d":null}],"__proto__":{"e":{}},"n":null}',
    ) as Record<string, unknown>;
    const reached: unknown[] = [];
    const walk = (value: unknown) => {
      if (value === null || typeof value !== "object") return;
      reached.push(value);
      for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key]);
    };
    walk(record);
    expect(deepFreeze(record)).toBe(record);
    expect(reached.length).toBe(10);
    for (const value of reached) expect(Object.isFrozen(value)).toBe(true);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  });

  it("does not freeze what an object inherits", () => {
    const inherited = { shared: {} };
    const record = Object.create(inherited) as Record<string, unknown>;
    record.own = {};
    deepFreeze(record);
    expect(Object.isFrozen(record.own)).toBe(true);
    expect(Object.isFrozen(inherited.shared)).toBe(false);
  });

  it("walks a deep document without overflowing the stack", () => {
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 100_000; i++) {
      const next: Record<string, unknown> = {};
      deep.next = next;
      deep = next;
    }
    deepFreeze(top);
    expect(Object.isFrozen(deep)).toBe(true);
  });
});

describe("freezeInSlices", () => {
  it("freezes a slice at once and the rest over later turns of the event loop, every element deeply", async () => {
    const deep = Array.from({ length: 100_000 }, (_, i) => ({ i, nested: { list: [i] } }));
    const lists: object[][] = [deep, [], Array.from({ length: 50_000 }, (_, i) => ({ i }))];
    freezeInSlices(lists);
    const frozen = () => lists.flat().filter((item) => Object.isFrozen(item)).length;
    // 65,536 elements a turn: some now, not all (a million would be 30 ms in one step).
    expect(frozen()).toBe(65_536);
    while (frozen() < 150_000) await new Promise((resolve) => setImmediate(resolve));
    expect(Object.isFrozen(deep[99_999]?.nested.list)).toBe(true);
  });
});
