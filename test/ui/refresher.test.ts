import { describe, expect, it } from "vitest";
import { refresher } from "../../ui/refresher.js";

/**
 * When the dashboard fetches a panel again (ui/refresher.js), on a clock the test moves: at most once per batch of
 * changes the live feed tells, never two fetches at once. Issue 44: the audience views were fetched again on
 * every change, each costing a pass over the project; a batch that came while a panel waited for its turn made a
 * second fetch of what the first had just read.
 */

/** A panel whose fetches the test finishes by hand, on a clock and timers it moves. */
function harness(options: { gap?: number; quiet?: boolean } = {}) {
  let now = 0;
  const timers: { at: number; resolve: () => void }[] = [];
  const fetches: { at: number; done: () => void }[] = [];
  const panel = refresher(
    () =>
      new Promise<void>((resolve) => {
        fetches.push({ at: now, done: resolve });
      }),
    {
      gap: () => options.gap ?? 500,
      quiet: () => options.quiet ?? true,
      clock: () => now,
      sleep: (ms) => new Promise<void>((resolve) => timers.push({ at: now + ms, resolve })),
    },
  );
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    panel,
    fetches,
    /** Moves the clock, firing the timers that fall due. */
    async advance(ms: number) {
      now += ms;
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.resolve();
      }
      await settle();
    },
    /** Finishes the fetch in flight. */
    async finish() {
      fetches.find((f) => f.done !== undefined)?.done();
      await settle();
    },
    settle,
  };
}

describe("ui/refresher.js", () => {
  it("a batch on a quiet panel is fetched at once, once", async () => {
    const h = harness();
    h.panel.changed();
    await h.settle();
    expect(h.fetches).toHaveLength(1);
    await h.finish();
    await h.advance(10_000);
    expect(h.fetches).toHaveLength(1);
  });

  it("any number of batches while a fetch is on its way make one more fetch, not one each", async () => {
    const h = harness();
    h.panel.changed();
    await h.settle();
    for (let i = 0; i < 25; i++) h.panel.changed();
    await h.finish();
    await h.advance(500);
    expect(h.fetches).toHaveLength(2);
    await h.finish();
    await h.advance(10_000);
    expect(h.fetches).toHaveLength(2);
  });

  it("a batch that comes while the panel waits for its turn is read by the fetch it waits for", async () => {
    const h = harness({ quiet: false, gap: 1500 });
    h.panel.changed();
    await h.settle();
    await h.finish();
    // The next batch waits out the busy gap; more batches meanwhile are all read by that one fetch.
    h.panel.changed();
    await h.advance(500);
    h.panel.changed();
    h.panel.changed();
    await h.advance(1000);
    expect(h.fetches).toHaveLength(2);
    expect(h.fetches[1]?.at).toBe(1500);
    await h.finish();
    await h.advance(10_000);
    expect(h.fetches).toHaveLength(2);
  });

  it("while busy, fetches are a gap apart however many batches come", async () => {
    const h = harness({ quiet: false, gap: 1500 });
    for (let t = 0; t < 6000; t += 100) {
      h.panel.changed();
      await h.advance(100);
      if (h.fetches.length > 0) await h.finish();
    }
    const starts = h.fetches.map((f) => f.at);
    expect(starts.length).toBeLessThanOrEqual(Math.ceil(6000 / 1500) + 1);
    for (let i = 1; i < starts.length; i++)
      expect((starts[i] as number) - (starts[i - 1] as number)).toBeGreaterThanOrEqual(1500);
  });

  it("what the user asks for is fetched without the gap; asked during a fetch, once more after it", async () => {
    const h = harness({ quiet: false, gap: 1500 });
    h.panel.now();
    await h.settle();
    expect(h.fetches).toHaveLength(1);
    h.panel.now();
    await h.finish();
    expect(h.fetches).toHaveLength(2);
    expect(h.fetches[1]?.at).toBe(0);
  });

  it("asked while the panel waits for its turn, the wait ends at once", async () => {
    const h = harness({ quiet: false, gap: 1500 });
    h.panel.changed();
    await h.settle();
    await h.finish();
    h.panel.changed();
    await h.advance(100);
    expect(h.fetches).toHaveLength(1);
    h.panel.now();
    await h.settle();
    expect(h.fetches.map((f) => f.at)).toEqual([0, 100]);
  });
});
