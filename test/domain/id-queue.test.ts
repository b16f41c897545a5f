import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdQueue } from "../../src/domain/vouchers/id-queue.js";

/** A queue over a set of ids that belong in it, as a store's open cards are: an id leaves by leaving the set. */
function queueOver(ids: Iterable<string> = []) {
  const here = new Set<string>();
  const queue = new IdQueue((id) => (here.has(id) ? `record ${id}` : undefined));
  for (const id of ids) {
    here.add(id);
    queue.seed(id);
  }
  return {
    queue,
    ids: () => [...queue].map((record) => record.slice("record ".length)),
    add(id: string) {
      here.add(id);
      queue.add(id);
    },
    leave(id: string) {
      here.delete(id);
    },
  };
}

describe("IdQueue (the open cards of a campaign, in order)", () => {
  it("answers the records of the ids still here, in the order they were seeded", () => {
    const { queue, leave } = queueOver(["a", "b", "c"]);
    expect([...queue]).toEqual(["record a", "record b", "record c"]);
    leave("b");
    expect([...queue]).toEqual(["record a", "record c"]);
  });

  it("puts an id that comes back last, and never shows its old slot again", () => {
    const { ids, add, leave } = queueOver(["a", "b", "c"]);
    leave("a");
    leave("b");
    add("a");
    expect(ids()).toEqual(["c", "a"]);
    // Back a second time: its slot of the first return is dead as well.
    leave("a");
    add("b");
    add("a");
    expect(ids()).toEqual(["c", "b", "a"]);
  });

  it("shows an id that came back twice once, when the head meets its older slots first", () => {
    const { ids, add, leave } = queueOver(["a"]);
    add("b");
    leave("a");
    add("a");
    leave("a");
    add("a");
    expect(ids()).toEqual(["b", "a"]);
    leave("b");
    expect(ids()).toEqual(["a"]);
    expect(ids()).toEqual(["a"]);
  });

  it("shows an id added after every slot was found dead", () => {
    const { ids, add, leave } = queueOver(["a", "b"]);
    leave("a");
    leave("b");
    expect(ids()).toEqual([]);
    add("c");
    add("a");
    expect(ids()).toEqual(["c", "a"]);
  });

  it("keeps an id that comes back after the head passed its old slot", () => {
    const { ids, add, leave } = queueOver(["a", "b", "c"]);
    leave("a");
    expect(ids()).toEqual(["b", "c"]);
    add("a");
    leave("b");
    expect(ids()).toEqual(["c", "a"]);
    leave("a");
    expect(ids()).toEqual(["c"]);
    add("a");
    expect(ids()).toEqual(["c", "a"]);
  });

  it("stays in order across the compaction of a long dead front", () => {
    const { ids, add, leave } = queueOver(Array.from({ length: 10_000 }, (_, i) => `v${i}`));
    for (let i = 0; i < 9_000; i++) {
      leave(`v${i}`);
      // Taken from the front one at a time, as assignment takes them: the head moves as iteration meets them.
      if (i % 100 === 0) ids();
    }
    add("v0");
    leave("v9500");
    const left = ids();
    expect(left).toHaveLength(1_000);
    expect(left[0]).toBe("v9000");
    expect(left).not.toContain("v9500");
    expect(left.at(-1)).toBe("v0");
    // Ids added after compaction leave and come back from their new positions.
    leave("v0");
    add("v9500");
    expect(ids().at(-1)).toBe("v9500");
    expect(ids()).not.toContain("v0");
  });

  it("behaves as an insertion-ordered Set under any sequence of adds, removals and takes", () => {
    // "take" removes the first id, as assignment does, so that the dead front grows and gets dropped; "look"
    // iterates part way, as assignment does, moving the head.
    const op = fc.tuple(
      fc.constantFrom("add", "leave", "take", "take", "look"),
      fc.integer({ min: 0, max: 3000 }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 2500, maxLength: 4000 }), (ops) => {
        const model = new Set<string>();
        for (let i = 0; i < 2000; i++) model.add(`id${i}`);
        const subject = queueOver(model);
        for (const [kind, n] of ops) {
          if (kind === "look") {
            const [first] = subject.queue;
            expect(first).toBe(model.size ? `record ${[...model][0]}` : undefined);
            continue;
          }
          const id = kind === "take" ? ([...model][0] ?? "none") : `id${n}`;
          // As the store does: an id is added only when it comes to belong, never while it is here.
          if (kind === "add" && !model.has(id)) {
            subject.add(id);
            model.add(id);
          } else if (kind !== "add") {
            subject.leave(id);
            model.delete(id);
          }
        }
        expect(subject.ids()).toEqual([...model]);
      }),
      { numRuns: 25 },
    );
  });
});
