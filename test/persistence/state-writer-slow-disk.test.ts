import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { STATE_SYNC_MODES, StateWriter } from "../../src/persistence/state-writer.js";
import { type SlowIo, slowIo } from "../helpers/slow-io.js";

// Saves slower than the interval (a large state, a busy disk): issue 18, where a change arriving during such a save
// stopped every later save in `interval` mode until shutdown.

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-slow-writer-"));
  file = join(dir, "state.json");
  // Only the interval is faked: the file operations and the writer's setImmediate stay real.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

const read = () => readFileSync(file, "utf8");
const INTERVAL = 1000;

function slowWriter(sync: (typeof STATE_SYNC_MODES)[number]) {
  const slow = slowIo();
  const state = { n: 0 };
  const errors: unknown[] = [];
  const writer = new StateWriter({
    file,
    sync,
    intervalMs: INTERVAL,
    io: slow.io,
    snapshot: () => String(state.n),
    onError: (error) => errors.push(error),
  });
  /** A change, reported the way the server reports it in this mode. */
  const change = (n: number) => {
    state.n = n;
    writer.markDirty();
  };
  return { slow, state, writer, errors, change };
}

/** Lets intervals pass and every save run to its end, until the writer has nothing more to do. */
async function settle(slow: SlowIo, writer: StateWriter): Promise<void> {
  for (let round = 0; round < 10; round++) {
    await vi.advanceTimersByTimeAsync(INTERVAL);
    while ((await slow.next(writer)) === "held") slow.release();
  }
}

for (const sync of STATE_SYNC_MODES)
  describe(`StateWriter with saves slower than the interval, ${sync} mode`, () => {
    it("keeps saving after a change arrives during a save that outlasts the interval", async () => {
      const { slow, writer, change } = slowWriter(sync);
      change(1);
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(await slow.next(writer)).toBe("held");
      change(2);
      await vi.advanceTimersByTimeAsync(2 * INTERVAL);
      slow.release();
      await settle(slow, writer);
      expect(read()).toBe("2");
      for (let n = 3; n <= 5; n++) {
        change(n);
        await settle(slow, writer);
        expect(read()).toBe(String(n));
      }
      await writer.close();
    });

    it("saves every change made during a save that outlasts the interval, each in a later save", async () => {
      const { slow, writer, change } = slowWriter(sync);
      change(1);
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(await slow.next(writer)).toBe("held");
      for (let n = 2; n <= 6; n++) {
        change(n);
        // The running save outlasts the interval of the change that came during it.
        await vi.advanceTimersByTimeAsync(INTERVAL);
        slow.release();
        expect(await slow.next(writer), `a save holding change ${n} starts as the one before ends`).toBe(
          "held",
        );
        expect(read()).toBe(String(n - 1));
      }
      slow.release();
      await writer.whenIdle();
      expect(read()).toBe("6");

      // And the writer is not stuck afterwards: a change after a quiet spell is saved too.
      await vi.advanceTimersByTimeAsync(10 * INTERVAL);
      change(7);
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(await slow.next(writer)).toBe("held");
      slow.release();
      await writer.whenIdle();
      expect(read()).toBe("7");
      expect(writer.saves).toBe(7);
      expect(writer.dirty).toBe(false);
      await writer.close();
    });

    it("retries a slow save that failed, with the change made during it", async () => {
      const { slow, writer, errors, change } = slowWriter(sync);
      change(1);
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(await slow.next(writer)).toBe("held");
      slow.setFailing(true);
      change(2);
      await vi.advanceTimersByTimeAsync(INTERVAL);
      slow.release();
      // A failed save is not retried at once (a full disk would make that a spin), but an interval later.
      expect(await slow.next(writer)).toBe("idle");
      expect(errors).toHaveLength(1);
      expect(writer.dirty).toBe(true);

      slow.setFailing(false);
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(await slow.next(writer)).toBe("held");
      slow.release();
      await writer.whenIdle();
      expect(read()).toBe("2");
      expect(writer.dirty).toBe(false);
      expect(errors).toHaveLength(1);
      await writer.close();
    });

    it("commit() during a slow save resolves only once a later save holding its change is on disk", async () => {
      const { slow, state, writer, change } = slowWriter(sync);
      change(1);
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(await slow.next(writer)).toBe("held");
      state.n = 2;
      let committed = false;
      const commit = writer.commit().then(() => {
        committed = true;
        expect(read()).toBe("2");
      });
      await vi.advanceTimersByTimeAsync(INTERVAL);
      slow.release();
      expect(await slow.next(writer)).toBe("held");
      expect(committed).toBe(false);
      slow.release();
      await commit;
      await writer.close();
    });

    it("close() during a slow save saves the change made during it, and leaves no timer behind", async () => {
      const { slow, writer, change } = slowWriter(sync);
      change(1);
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(await slow.next(writer)).toBe("held");
      change(2);
      await vi.advanceTimersByTimeAsync(INTERVAL);
      const closed = writer.close();
      slow.release();
      expect(await slow.next(writer)).toBe("held");
      slow.release();
      await closed;
      expect(read()).toBe("2");
      expect(vi.getTimerCount()).toBe(0);
      change(3);
      await vi.advanceTimersByTimeAsync(10 * INTERVAL);
      await writer.whenIdle();
      expect(read()).toBe("2");
      expect(writer.saves).toBe(2);
    });

    it("close() during a slow save that fails tries once more, and rejects when that fails too", async () => {
      const { slow, writer, errors, change } = slowWriter(sync);
      change(1);
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(await slow.next(writer)).toBe("held");
      slow.setFailing(true);
      const outcome = writer.close().then(
        () => "resolved",
        (error: NodeJS.ErrnoException) => error.code,
      );
      slow.release();
      expect(await slow.next(writer)).toBe("held");
      slow.release();
      expect(await outcome).toBe("EIO");
      expect(errors).toHaveLength(2);
      expect(existsSync(file)).toBe(false);
      expect(vi.getTimerCount()).toBe(0);
    });
  });

it("a listener of failed saves that throws does not stop later saves", async () => {
  const slow = slowIo();
  const writer = new StateWriter({
    file,
    sync: "always",
    intervalMs: INTERVAL,
    io: slow.io,
    snapshot: () => "saved",
    onError: () => {
      throw new Error("log destination gone");
    },
  });
  slow.setFailing(true);
  const failed = expect(writer.commit()).rejects.toMatchObject({ code: "EIO" });
  expect(await slow.next(writer)).toBe("held");
  slow.release();
  await failed;
  slow.setFailing(false);
  const saved = writer.commit();
  expect(await slow.next(writer)).toBe("held");
  slow.release();
  await saved;
  expect(read()).toBe("saved");
  await writer.close();
});
