import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadState } from "../../src/persistence/load-state.js";
import { StateStore } from "../../src/persistence/state-store.js";
import { buildWorld } from "../helpers/world.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("StateStore.close during a background snapshot", () => {
  it("gives the snapshot up without reporting it as a failed save, and keeps the change in the log", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-close-"));
    dirs.push(dir);
    const file = join(dir, "state.json");
    const { registry, demo } = buildWorld();
    const errors: unknown[] = [];
    const store = new StateStore({
      file,
      registry,
      sync: "always",
      intervalMs: 1000,
      gen: 0,
      compactBytes: 64 * 1024 * 1024,
      onError: (error) => errors.push(error),
    });
    await store.start(undefined);
    const card = demo.vouchers.records().next().value;
    if (!card) throw new Error("no card");
    demo.vouchers.put({ ...card, loyalty_card: { points: 42, balance: 0 } } as typeof card);
    await store.writer.commit();
    const snapshots = store.snapshots;
    // As after a restart that replayed a log: a new snapshot starts in the background.
    await store.start({ replayedBytes: 1 });
    await store.close();
    expect(store.snapshots).toBe(snapshots);
    expect(errors).toEqual([]);
    const saved = loadState(file)?.projects.find((p) => p.state.project.id === "demo");
    const kept = saved?.state.vouchers.find((v) => v.id === card.id);
    expect(kept?.loyalty_card).toEqual({ points: 42, balance: 0 });
  });
});
