import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeyedRecords } from "../../src/persistence/keyed-records.js";

const keyOf = (record: unknown) => (record as { id: string }).id;

describe("KeyedRecords: a collection rebuilt by the replay", () => {
  it("holds what a Map keyed by id would, in the same order, whatever the mix of appends, writes and deletes", () => {
    const op = fc.oneof(
      fc.record({ o: fc.constant("set" as const), id: fc.integer({ min: 0, max: 20 }), v: fc.nat() }),
      fc.record({ o: fc.constant("del" as const), id: fc.integer({ min: 0, max: 20 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.array(op, { maxLength: 60 }), (seeded, ops) => {
        // A snapshot's part: keys of their own, appended; then a log's lines.
        const records = new KeyedRecords(keyOf);
        const map = new Map<string, unknown>();
        for (let i = 0; i < seeded; i++) {
          const record = { id: String(i), v: -1 };
          records.append(record);
          map.set(record.id, record);
        }
        for (const line of ops) {
          const id = String(line.id);
          if (line.o === "del") {
            records.delete(id);
            map.delete(id);
          } else {
            const record = { id, v: line.v };
            records.set(id, record);
            map.set(id, record);
          }
        }
        expect(records.values()).toEqual([...map.values()]);
      }),
      { numRuns: 300 },
    );
  });

  it("never changes the array it was seeded with, when given a copy", () => {
    const fixtures = [{ id: "a" }, { id: "b" }];
    const records = new KeyedRecords(keyOf, [...fixtures]);
    records.delete("a");
    records.set("c", { id: "c" });
    expect(fixtures).toEqual([{ id: "a" }, { id: "b" }]);
    expect(records.values()).toEqual([{ id: "b" }, { id: "c" }]);
  });
});
