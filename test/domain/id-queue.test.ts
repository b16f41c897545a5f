import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdQueue } from "../../src/domain/vouchers/id-queue.js";

describe("IdQueue (the open cards of a campaign, in order)", () => {
  it("keeps the order ids were added in, like a Set", () => {
    const queue = new IdQueue();
    for (const id of ["a", "b", "c", "b"]) queue.add(id);
    expect([...queue]).toEqual(["a", "b", "c"]);
    expect(queue.size).toBe(3);
  });

  it("forgets a deleted id, and puts it last when it comes back", () => {
    const queue = new IdQueue();
    for (const id of ["a", "b", "c"]) queue.add(id);
    expect(queue.delete("a")).toBe(true);
    expect(queue.delete("a")).toBe(false);
    expect(queue.has("a")).toBe(false);
    queue.delete("b");
    queue.add("a");
    expect([...queue]).toEqual(["c", "a"]);
  });

  it("stays in order across the compaction of a long dead front", () => {
    const queue = new IdQueue();
    for (let i = 0; i < 10_000; i++) queue.add(`v${i}`);
    for (let i = 0; i < 9_000; i++) queue.delete(`v${i}`);
    queue.add("v0");
    queue.delete("v9500");
    expect(queue.size).toBe(1_000);
    const ids = [...queue];
    expect(ids[0]).toBe("v9000");
    expect(ids).not.toContain("v9500");
    expect(ids.at(-1)).toBe("v0");
    // Ids added after compaction can still be deleted from their slot.
    expect(queue.delete("v0")).toBe(true);
    expect(queue.delete("v9999")).toBe(true);
    expect([...queue].at(-1)).toBe("v9998");
  });

  it("behaves as an insertion-ordered Set under any sequence of adds and deletes", () => {
    // "take" deletes the first id, as assignment does, so that the dead front grows and gets dropped.
    const op = fc.tuple(fc.constantFrom("add", "delete", "take", "take"), fc.integer({ min: 0, max: 3000 }));
    fc.assert(
      fc.property(fc.array(op, { minLength: 2500, maxLength: 4000 }), (ops) => {
        const queue = new IdQueue();
        const model = new Set<string>();
        for (let i = 0; i < 2000; i++) {
          queue.add(`id${i}`);
          model.add(`id${i}`);
        }
        for (const [kind, n] of ops) {
          const id = kind === "take" ? ([...model][0] ?? "none") : `id${n}`;
          if (kind === "add") {
            queue.add(id);
            model.add(id);
          } else expect(queue.delete(id)).toBe(model.delete(id));
        }
        expect([...queue]).toEqual([...model]);
        expect(queue.size).toBe(model.size);
      }),
      { numRuns: 25 },
    );
  });
  it("queues an id added as new like one added with add, and deletes it from its slot", () => {
    const queue = new IdQueue();
    queue.addNew("a");
    queue.add("b");
    queue.addNew("c");
    queue.add("a");
    expect([...queue]).toEqual(["a", "b", "c"]);
    expect(queue.delete("c")).toBe(true);
    expect([...queue]).toEqual(["a", "b"]);
    expect(queue.size).toBe(2);
  });
});
