import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULTS } from "../../src/config/settings.js";
import { type FileIo, nodeFileIo, tempFileFor, writeFileAtomic } from "../../src/persistence/atomic-write.js";
import { StateWriter, type StateWriterOptions } from "../../src/persistence/state-writer.js";

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-writer-"));
  file = join(dir, "state.json");
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

const read = () => readFileSync(file, "utf8");

/** A writer whose state is a counter: every change bumps it, every save writes it. */
function counterWriter(options: Partial<StateWriterOptions> = {}) {
  const state = { n: 0 };
  const writer = new StateWriter({
    file,
    snapshot: () => String(state.n),
    sync: DEFAULTS.stateSync,
    intervalMs: DEFAULTS.stateSaveIntervalMs,
    ...options,
  });
  return { state, writer };
}

/** File operations that fail at a chosen step, the way a full disk or a vanished folder would. */
function failingIo(step: "open" | "write" | "rename", times = 1): FileIo & { failures: number } {
  const io = {
    failures: 0,
    open: async (path: string, flags: string, mode?: number) => {
      if (step === "open" && flags === "w" && io.failures < times) {
        io.failures += 1;
        throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      }
      const handle = await nodeFileIo.open(path, flags, mode);
      if (step !== "write" || flags !== "w" || io.failures >= times) return handle;
      return {
        writeFile: async (data: string) => {
          io.failures += 1;
          await handle.writeFile(data.slice(0, Math.floor(data.length / 2)), "utf8");
          throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
        },
        sync: () => handle.sync(),
        close: () => handle.close(),
      };
    },
    rename: async (from: string, to: string) => {
      if (step === "rename" && io.failures < times) {
        io.failures += 1;
        throw Object.assign(new Error("input/output error"), { code: "EIO" });
      }
      await nodeFileIo.rename(from, to);
    },
    unlink: nodeFileIo.unlink,
  };
  return io;
}

/** File operations whose first save waits at the rename until released: a save caught in the middle. */
function gatedIo() {
  let release: () => void = () => undefined;
  let entered: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  const reached = new Promise<void>((resolve) => {
    entered = resolve;
  });
  let first = true;
  const io: FileIo = {
    ...nodeFileIo,
    rename: async (from, to) => {
      if (first) {
        first = false;
        entered();
        await opened;
      }
      await nodeFileIo.rename(from, to);
    },
  };
  return { io, release: () => release(), entered: reached };
}

describe("writeFileAtomic", () => {
  it("replaces the file whole, readable only by its owner, and leaves no temporary file", async () => {
    writeFileSync(file, "old");
    await writeFileAtomic(file, "new content");
    expect(read()).toBe("new content");
    expect(existsSync(tempFileFor(file))).toBe(false);
    if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  for (const step of ["open", "write", "rename"] as const)
    it(`keeps the old file whole when the ${step} step fails`, async () => {
      writeFileSync(file, "old");
      await expect(writeFileAtomic(file, "x".repeat(100_000), failingIo(step))).rejects.toThrow();
      expect(read()).toBe("old");
      expect(existsSync(tempFileFor(file))).toBe(false);
    });
});

describe("StateWriter, interval mode", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });

  it("saves a burst of changes once, an interval after the first of them", async () => {
    const { state, writer } = counterWriter({ intervalMs: 1000 });
    for (let i = 0; i < 100; i++) {
      state.n += 1;
      writer.markDirty();
    }
    await vi.advanceTimersByTimeAsync(999);
    await writer.whenIdle();
    expect(writer.saves).toBe(0);
    expect(existsSync(file)).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    await writer.whenIdle();
    expect(writer.saves).toBe(1);
    expect(read()).toBe("100");
  });

  it("is not pushed back by later changes: a steady stream is saved every interval", async () => {
    const { state, writer } = counterWriter({ intervalMs: 1000 });
    for (let tick = 1; tick <= 30; tick++) {
      state.n = tick;
      writer.markDirty();
      await vi.advanceTimersByTimeAsync(100);
      await writer.whenIdle();
    }
    expect(writer.saves).toBe(3);
    expect(read()).toBe("30");
  });

  it("leaves a change made during a save to the next interval", async () => {
    const gate = gatedIo();
    const { state, writer } = counterWriter({ intervalMs: 1000, io: gate.io });
    state.n = 1;
    writer.markDirty();
    await vi.advanceTimersByTimeAsync(1000);
    await gate.entered;
    state.n = 2;
    writer.markDirty();
    gate.release();
    await writer.whenIdle();
    expect(writer.saves).toBe(1);
    expect(read()).toBe("1");

    await vi.advanceTimersByTimeAsync(1000);
    await writer.whenIdle();
    expect(writer.saves).toBe(2);
    expect(read()).toBe("2");
  });

  it("saves nothing when nothing changed", async () => {
    const { writer } = counterWriter({ intervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(10_000);
    await writer.flush();
    expect(writer.saves).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("close() saves what is pending at once and ignores later changes", async () => {
    const { state, writer } = counterWriter({ intervalMs: 60_000 });
    state.n = 7;
    writer.markDirty();
    await writer.close();
    expect(read()).toBe("7");
    state.n = 8;
    writer.markDirty();
    await vi.advanceTimersByTimeAsync(120_000);
    await writer.whenIdle();
    expect(read()).toBe("7");
    expect(writer.saves).toBe(1);
  });

  it("close() reports a failed last save and stops trying", async () => {
    const io = failingIo("open", Number.POSITIVE_INFINITY);
    const { state, writer } = counterWriter({ intervalMs: 1000, io });
    state.n = 1;
    writer.markDirty();
    await expect(writer.close()).rejects.toMatchObject({ code: "ENOSPC" });
    await vi.advanceTimersByTimeAsync(10_000);
    await writer.whenIdle();
    expect(io.failures).toBe(1);
  });

  it("keeps unsaved changes after a failed save and saves them on the next interval", async () => {
    const errors: unknown[] = [];
    const io = failingIo("rename");
    writeFileSync(file, "0");
    const { state, writer } = counterWriter({ intervalMs: 1000, io, onError: (e) => errors.push(e) });
    state.n = 5;
    writer.markDirty();
    await vi.advanceTimersByTimeAsync(1000);
    await writer.whenIdle();
    expect(errors).toHaveLength(1);
    expect(read()).toBe("0");
    expect(writer.dirty).toBe(true);

    await vi.advanceTimersByTimeAsync(1000);
    await writer.whenIdle();
    expect(read()).toBe("5");
    expect(writer.dirty).toBe(false);
  });
});

describe("StateWriter, always mode (group commit)", () => {
  it("acknowledges a change only once a save holding it is on disk", async () => {
    const { state, writer } = counterWriter({ sync: "always" });
    state.n = 1;
    await writer.commit();
    expect(read()).toBe("1");
  });

  it("saves changes that arrive together once", async () => {
    const { state, writer } = counterWriter({ sync: "always" });
    const commits = Array.from({ length: 50 }, () => {
      state.n += 1;
      return writer.commit();
    });
    await Promise.all(commits);
    expect(writer.saves).toBe(1);
    expect(read()).toBe("50");
  });

  it("batches the changes made during a save into the next one, and each waits for the save that holds it", async () => {
    const gate = gatedIo();
    const { state, writer } = counterWriter({ sync: "always", io: gate.io });
    const seen: string[] = [];
    const change = () => {
      state.n += 1;
      const n = state.n;
      return writer.commit().then(() => {
        // What is on disk when the acknowledgement comes holds this change.
        expect(Number(read())).toBeGreaterThanOrEqual(n);
        seen.push(String(n));
      });
    };
    const one = change();
    await gate.entered;
    const during = [change(), change(), change()];
    gate.release();
    await Promise.all([one, ...during]);
    expect(seen.sort()).toEqual(["1", "2", "3", "4"]);
    expect(writer.saves).toBe(2);
    expect(read()).toBe("4");
  });

  it("saves for a change reported the moment a save has failed", async () => {
    const { state, writer } = counterWriter({ sync: "always", io: failingIo("open") });
    state.n = 1;
    // The retry is made from the rejection itself, before the failed save has wound down.
    await writer.commit().catch(() => writer.commit());
    expect(read()).toBe("1");
  });

  it("rejects the changes of a failed save, keeps them, and saves them with the next change", async () => {
    writeFileSync(file, "0");
    const errors: unknown[] = [];
    const { state, writer } = counterWriter({
      sync: "always",
      io: failingIo("write"),
      onError: (e) => errors.push(e),
    });
    state.n = 1;
    await expect(writer.commit()).rejects.toMatchObject({ code: "ENOSPC" });
    expect(read()).toBe("0");
    expect(errors).toHaveLength(1);
    state.n = 2;
    await writer.commit();
    expect(read()).toBe("2");
    await writer.close();
  });
});
