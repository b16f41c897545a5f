import { describe, expect, it, vi } from "vitest";
import { BatchedDestination } from "../../src/platform/log-destination.js";

/** A stand-in for sonic-boom that records what it is handed and when it is asked to flush. */
function target() {
  const calls: string[] = [];
  return {
    calls,
    write: (text: string) => void calls.push(`write ${text}`),
    flush: (callback?: () => void) => {
      calls.push("flush");
      callback?.();
    },
    flushSync: () => void calls.push("flushSync"),
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the batched log destination", () => {
  it("hands the lines of one window over as one write, in order, and the next window's as another", async () => {
    const sink = target();
    const destination = new BatchedDestination(sink, 10);
    destination.write("a\n");
    destination.write("b\n");
    expect(sink.calls).toEqual([]);
    await vi.waitUntil(() => sink.calls.length > 0, { timeout: 10_000, interval: 2 });
    destination.write("c\n");
    await vi.waitUntil(() => sink.calls.length > 1, { timeout: 10_000, interval: 2 });
    expect(sink.calls).toEqual(["write a\nb\n", "write c\n"]);
  });

  it("flush and flushSync hand over what is pending before flushing the target", async () => {
    const sink = target();
    const destination = new BatchedDestination(sink, 10_000);
    destination.write("a\n");
    const flushed = new Promise<void>((resolve) => destination.flush(() => resolve()));
    await flushed;
    destination.write("b\n");
    destination.flushSync();
    destination.flushSync();
    expect(sink.calls).toEqual(["write a\n", "flush", "write b\n", "flushSync", "flushSync"]);
    // Nothing is left for the timer of the batch that was handed over early.
    await wait(20);
    expect(sink.calls).toHaveLength(5);
  });
});
