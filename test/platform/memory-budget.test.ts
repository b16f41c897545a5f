import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../src/platform/collect-garbage.js";
import { makeRoom, overBudget } from "../../src/platform/memory-budget.js";

const MIB = 2 ** 20;
const usedMib = () => getHeapStatistics().used_heap_size / MIB;

/** Some 50 MiB of records, made and let go: garbage until V8 collects it. */
function garbage(): void {
  let records: { id: string; n: number }[] | undefined = [];
  for (let i = 0; i < 750_000; i++) records.push({ id: `card_${i}`, n: i });
  expect(records.length).toBe(750_000);
  records = undefined;
}

/** The collections V8 made while `work` ran: each as forced (by gc()) or not. */
async function collectionsDuring(work: () => Promise<void>): Promise<{ forced: boolean; major: boolean }[]> {
  const seen: { forced: boolean; major: boolean }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind, flags } = (entry as PerformanceEntry & { detail: { kind: number; flags: number } })
        .detail;
      seen.push({
        forced: (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0,
        major: kind === constants.NODE_PERFORMANCE_GC_MAJOR,
      });
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  await work();
  // Entries are delivered a turn later.
  await new Promise((resolve) => setTimeout(resolve, 20));
  observer.disconnect();
  return seen;
}

describe("the memory budget's room made beside the running code", () => {
  it("a heap over budget by its garbage is collected by V8's own marking, never a forced collection", async () => {
    collectGarbage()();
    const live = usedMib();
    garbage();
    const withGarbage = usedMib();
    expect(withGarbage - live).toBeGreaterThan(30);
    // 16 MiB more fits what is live, not the heap with its garbage.
    const budgetMb = Math.ceil(live) + 24;
    expect(withGarbage + 16).toBeGreaterThan(budgetMb);

    const collections = await collectionsDuring(() => makeRoom(16 * MIB, budgetMb));
    expect(collections.some((collection) => collection.major)).toBe(true);
    expect(collections.filter((collection) => collection.forced)).toEqual([]);
    expect(usedMib()).toBeLessThan(withGarbage - 30);
    // The look that follows finds room, and forces nothing either.
    const looked = await collectionsDuring(async () => {
      expect(overBudget(16 * MIB, budgetMb)).toBeUndefined();
    });
    expect(looked.filter((collection) => collection.forced)).toEqual([]);
  });

  it("under the budget it collects nothing", async () => {
    const collections = await collectionsDuring(() => makeRoom(MIB, Math.ceil(usedMib()) + 256));
    expect(collections.filter((collection) => collection.major)).toEqual([]);
  });

  // Node's warning that vm.measureMemory is experimental comes once per process, so whether it is shown is tested
  // in a process of its own (test/slow/memory-budget-process.test.ts); here, that process.emitWarning is put back.
  it("process.emitWarning is the process's own again once the collection has started", async () => {
    const emitWarning = process.emitWarning;
    const own = ((...args: Parameters<typeof process.emitWarning>) =>
      emitWarning.apply(process, args)) as typeof process.emitWarning;
    process.emitWarning = own;
    try {
      await makeRoom(10_000 * MIB, 64);
      expect(process.emitWarning).toBe(own);
    } finally {
      process.emitWarning = emitWarning;
    }
  });
});
