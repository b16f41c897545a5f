import { getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { collectGarbage, releaseFreeMemory } from "../../src/platform/collect-garbage.js";

/** A load's worth of records, held and then let go, as a start's fixture reading leaves them. */
function loadAndDrop(): void {
  let records: { id: string; n: number }[] | undefined = [];
  for (let i = 0; i < 750_000; i++) records.push({ id: `card_${i}`, n: i });
  expect(records.length).toBe(750_000);
  records = undefined;
}

describe("giving the load's garbage back", () => {
  it("releaseFreeMemory collects a dropped load and shrinks the committed heap", async () => {
    loadAndDrop();
    const before = getHeapStatistics();
    await releaseFreeMemory();
    const after = getHeapStatistics();
    // About 50 MB of records were dropped: most of what they took is no longer in use, nor committed.
    expect(before.used_heap_size - after.used_heap_size).toBeGreaterThan(25 * 2 ** 20);
    expect(before.total_heap_size - after.total_heap_size).toBeGreaterThan(25 * 2 ** 20);
  });

  it("collectGarbage gives a full collection without --expose-gc, and leaves no gc global behind", () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    const gc = collectGarbage();
    loadAndDrop();
    const before = getHeapStatistics().used_heap_size;
    gc();
    expect(before - getHeapStatistics().used_heap_size).toBeGreaterThan(25 * 2 ** 20);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
