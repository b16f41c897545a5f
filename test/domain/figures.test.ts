import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RecordGroups } from "../../src/domain/figures/record-groups.js";
import { SortedTally } from "../../src/domain/figures/sorted-tally.js";
import { TimedEvents } from "../../src/domain/figures/timed-events.js";
import { addInt64, subtractInt64 } from "../../src/domain/shared/int64.js";

/** The pieces the project's figures are made of (domain/figures), each held to the plain computation it replaces. */

const SEED = Number(process.env.FUZZ_SEED ?? 20261120);
const RUNS = Math.max(50, Number(process.env.FUZZ_RUNS ?? 200));

describe("subtractInt64", () => {
  it("takes away exactly past 2^53 and comes back to a number within it, never -0", () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(subtractInt64(addInt64(max, max), max)).toBe(max);
    expect(subtractInt64(-max, 2)).toBe(-9007199254740993n);
    expect(subtractInt64(0, -max - 1)).toBe(9007199254740992n);
    expect(Object.is(subtractInt64(0, 0), 0)).toBe(true);
    expect(Object.is(subtractInt64(5, 5), 0)).toBe(true);
  });
});

describe("SortedTally", () => {
  /** Steps from a seed rather than a generated array: thousands of them, and a failure shrinks to its seed. */
  function stepsFrom(seed: number) {
    let state = seed >>> 0 || 1;
    const next = (n: number) => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state % n;
    };
    const length = 1000 + next(4000);
    const spread = [50, 3000, 100_000][next(3)] as number;
    const removing = next(100) / 100;
    return Array.from({ length }, () => ({
      key: next(20) === 0 ? Number.MAX_SAFE_INTEGER : next(spread) - 25,
      count: 1 + next(3),
      sum: next(30) === 0 ? Number.MAX_SAFE_INTEGER : next(2001) - 1000,
      removeLater: next(100) / 100 < removing,
    }));
  }

  it("answers what lies below any key, and the smallest key, as a list of every add would", () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.array(fc.integer({ min: -60, max: 3100 }), { maxLength: 30 }),
        (seed, probes) => {
          const steps = stepsFrom(seed);
          const tally = new SortedTally();
          const kept = steps.map((s) => ({ ...s }));
          for (const s of steps) tally.add(s.key, s.count, s.sum);
          // Taking away most of what was added (chunks shrink and merge) leaves the rest exactly.
          for (const [i, s] of steps.entries())
            if (s.removeLater) {
              tally.add(s.key, -s.count, subtractInt64(0, s.sum));
              kept[i] = { ...s, count: 0, sum: 0 };
            }
          const live = kept.filter((k) => k.count > 0);
          expect(tally.min()).toBe(
            live.length === 0 ? undefined : live.reduce((a, k) => Math.min(a, k.key), Infinity),
          );
          for (const probe of [...probes, 50_000, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER])
            for (const inclusive of [false, true]) {
              const below = live.filter((k) => k.key < probe || (inclusive && k.key === probe));
              const answer = tally.below(probe, inclusive);
              expect(answer.count).toBe(below.reduce((total, k) => total + k.count, 0));
              expect(BigInt(answer.sum)).toBe(below.reduce((total, k) => total + BigInt(k.sum), 0n));
            }
        },
      ),
      { numRuns: Math.round(RUNS / 4), seed: SEED },
    );
  });

  it("stays quick when keys come in order by the hundred thousand (a clock moving forward)", () => {
    const tally = new SortedTally();
    for (let i = 0; i < 300_000; i++) tally.add(i * 1000, 1, 10);
    expect(tally.below(150_000 * 1000, false)).toEqual({ count: 150_000, sum: 1_500_000 });
    expect(tally.below(Number.POSITIVE_INFINITY, false).sum).toBe(3_000_000);
  });
});

describe("TimedEvents", () => {
  it("finds the nearest event, the first in order among equally near ones, as a scan does", () => {
    const times = fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 40 });
    fc.assert(
      fc.property(times, fc.boolean(), fc.array(fc.integer({ min: -5, max: 45 })), (raw, sorted, probes) => {
        const at = sorted ? [...raw].sort((a, b) => a - b) : raw;
        const events = at.map((t, i) => ({ id: i, created_at: new Date(t * 60_000).toISOString() }));
        const timed = new TimedEvents<(typeof events)[number]>();
        for (const event of events) timed.add(event);
        for (const probe of [...probes, Number.NaN]) {
          const moment = probe * 60_000;
          let best: (typeof events)[number] | undefined;
          let gap = 0;
          for (const event of events) {
            const g = Math.abs(Date.parse(event.created_at) - moment);
            if (best === undefined || g < gap) [best, gap] = [event, g];
          }
          expect(timed.nearest(moment)).toBe(best);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});

describe("RecordGroups", () => {
  it("lists each group in the store's order, whatever moved between groups", () => {
    const write = fc.record({
      id: fc.nat(12),
      group: fc.constantFrom("a", "b", undefined),
      drop: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(write, { maxLength: 60 }), (writes) => {
        const store = new Map<number, { id: number; group: string | undefined }>();
        const groups = new RecordGroups<{ id: number; group: string | undefined }>(
          (record) => record.group,
          () => store.values(),
        );
        for (const w of writes) {
          const previous = store.get(w.id);
          if (w.drop) {
            if (previous === undefined) continue;
            store.delete(w.id);
            groups.change(previous, undefined);
          } else {
            const next = { id: w.id, group: w.group };
            store.set(w.id, next);
            groups.change(previous, next);
          }
        }
        for (const group of ["a", "b"])
          expect(groups.list(group)).toEqual([...store.values()].filter((record) => record.group === group));
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
