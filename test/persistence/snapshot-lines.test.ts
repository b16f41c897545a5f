import { describe, expect, it } from "vitest";
import { COLLECTION_NAMES, type ProjectDocument } from "../../src/domain/projects/project-document.js";
import { makeSnapshot } from "../../src/domain/projects/snapshots.js";
import { snapshotLines } from "../../src/persistence/snapshot-lines.js";

/**
 * How a snapshot's records are written (issue 44): runs naming records the file holds already, and only the
 * records nobody shares whole, however a large project's records were changed, deleted or added since.
 */

const empty = Object.fromEntries(COLLECTION_NAMES.map((name) => [name, []]));
const documentOf = (vouchers: object[]) =>
  ({
    ...empty,
    project: { id: "big", settings: {}, clock: { offset_ms: 0 } },
    vouchers,
  }) as unknown as ProjectDocument;
const card = (i: number, version = 0) => ({ id: `v_${i}`, code: `C-${i}`, version });

function linesOf(records: object[], fixtures: object[], base?: object[]) {
  const snapshot = makeSnapshot("now", 0, 0, documentOf(records));
  const before = base && makeSnapshot("before", 0, 0, documentOf(base));
  return [...snapshotLines("big", snapshot, documentOf(fixtures), before)]
    .slice(1)
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .map(({ o, f, i, m, r }) => (o === "srun" ? { o, f, i, m } : { o, id: (r as { id: string }).id }));
}

describe("a snapshot's lines", () => {
  const fixtures = Array.from({ length: 10_000 }, (_, i) => card(i));

  it("are one run when nothing changed, and a run around each stretch that did", () => {
    expect(linesOf([...fixtures], fixtures)).toEqual([{ o: "srun", f: undefined, i: 0, m: 10_000 }]);
    // 2,000 cards written anew in a row, far past the look-ahead: the walk keeps its place by their ids.
    const changed = fixtures.map((record, i) => (i >= 1000 && i < 3000 ? card(i, 1) : record));
    const lines = linesOf(changed, fixtures);
    expect(lines.filter((line) => line.o === "sput")).toHaveLength(2000);
    expect(lines.filter((line) => line.o === "srun")).toEqual([
      { o: "srun", f: undefined, i: 0, m: 1000 },
      { o: "srun", f: undefined, i: 3000, m: 7000 },
    ]);
  });

  it("step over records deleted since, and write the ones added after the rest", () => {
    const kept = fixtures.filter((_, i) => i < 500 || i >= 1500);
    const added = [card(20_000), card(20_001)];
    expect(linesOf([...kept, ...added], fixtures)).toEqual([
      { o: "srun", f: undefined, i: 0, m: 500 },
      { o: "srun", f: undefined, i: 1500, m: 8500 },
      { o: "sput", id: "v_20000" },
      { o: "sput", id: "v_20001" },
    ]);
  });

  it("name the last snapshot's records before the fixtures', so what the API wrote is written once", () => {
    const written = fixtures.map((record, i) => (i < 100 ? card(i, 1) : record));
    const later = written.map((record, i) => (i === 5000 ? card(i, 2) : record));
    expect(linesOf(later, fixtures, written)).toEqual([
      { o: "srun", f: "before", i: 0, m: 5000 },
      { o: "sput", id: "v_5000" },
      { o: "srun", f: "before", i: 5001, m: 4999 },
    ]);
  });
});
