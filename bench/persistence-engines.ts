import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { projectDefaultsOf } from "../src/config/project-defaults.js";
import { DEFAULTS } from "../src/config/settings.js";
import { COLLECTION_NAMES } from "../src/domain/projects/project-document.js";
import { ProjectRegistry } from "../src/domain/projects/registry.js";
import { loadState } from "../src/persistence/load-state.js";
import { restoreProjects } from "../src/persistence/state-file.js";
import { StateStore } from "../src/persistence/state-store.js";
import { systemClock } from "../src/platform/clock.js";

/**
 * The two designs of issue 18 on the same workload, in this process: the change log (what the server uses) and
 * SQLite through better-sqlite3, each with group commit (one fsync or one transaction for every write waiting).
 * A write changes one card and waits until it is durable, ten writers at a time, as STATE_SYNC=always does.
 */
export interface EngineResult {
  engine: "log" | "sqlite";
  cards: number;
  writesPerSecond: number;
  /** Longest the event loop was blocked while the writes ran, and while a full snapshot (or checkpoint) ran. */
  writeBlockMs: number;
  snapshotMs: number;
  snapshotBlockMs: number;
  /** The longest gap in the snapshot's event loop, and the CPU the process used in it (see `blocked`). */
  snapshotGapMs?: number;
  snapshotGapCpuMs?: number;
  restartMs: number;
  diskMiB: number;
}

const WRITERS = 10;

export function benchDocument(cards: number) {
  const created = "2026-01-01T00:00:00.000Z";
  return {
    project: { id: "bench", name: "Benchmark", settings: {}, clock: { offset_ms: 0 } },
    ...Object.fromEntries(COLLECTION_NAMES.map((c) => [c, []])),
    campaigns: [
      {
        id: "camp_bench",
        name: "Bench",
        campaign_type: "LOYALTY_PROGRAM",
        type: "STATIC",
        join_once: true,
        voucher: { type: "LOYALTY_CARD", loyalty_card: { points: 0 } },
        created_at: created,
      },
    ],
    vouchers: Array.from({ length: cards }, (_, i) => ({
      id: `v_bench${String(i).padStart(17, "0")}`,
      code: `BENCH-${String(i).padStart(8, "0")}`,
      campaign_id: "camp_bench",
      type: "LOYALTY_CARD",
      loyalty_card: { points: 0, balance: 0 },
      active: true,
      created_at: created,
    })),
  } as never;
}

export function newRegistry(cards: number): ProjectRegistry {
  return new ProjectRegistry({
    clock: systemClock,
    defaults: projectDefaultsOf(DEFAULTS),
    documents: [benchDocument(cards)],
  });
}

/**
 * Runs `task` while measuring the longest event-loop block, in ms, and the CPU time the process used during the
 * longest gap a 5 ms timer saw (all its threads: the loop's work, the GC's helpers, the file writes). A gap much
 * longer than the CPU used in it is the process waiting for a core (other work on the machine), not ours.
 */
export async function blocked<T>(
  task: () => Promise<T>,
): Promise<{ value: T; blockMs: number; ms: number; gapMs: number; gapCpuMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let last = { at: performance.now(), cpu: cpuMs() };
  let longest = { gapMs: 0, gapCpuMs: 0 };
  const probe = setInterval(() => {
    const now = { at: performance.now(), cpu: cpuMs() };
    if (now.at - last.at > longest.gapMs)
      longest = { gapMs: now.at - last.at - 5, gapCpuMs: now.cpu - last.cpu };
    last = now;
  }, 5);
  const started = performance.now();
  const value = await task();
  const ms = performance.now() - started;
  // A task that blocked to the end shows only once the histogram's timer fires after it.
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(probe);
  histogram.disable();
  return { value, blockMs: histogram.max / 1e6, ms, ...longest };
}

/** Ten writers, each changing a random card and waiting for `durable`, for `seconds`; acknowledged writes/s. */
export async function writes(registry: ProjectRegistry, durable: () => Promise<void>, seconds: number) {
  const vouchers = registry.get("bench").vouchers;
  const cards = vouchers.size;
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const writer = async () => {
    while (performance.now() < until) {
      const card = vouchers.stored(`v_bench${String(Math.floor(Math.random() * cards)).padStart(17, "0")}`);
      if (!card) throw new Error("no such card");
      vouchers.put({
        ...card,
        loyalty_card: { points: (card.loyalty_card?.points ?? 0) + 1, balance: 0 },
      } as never);
      await durable();
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  return done / seconds;
}

export function diskMiB(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0) / 2 ** 20;
}

export async function benchLog(cards: number, seconds: number): Promise<EngineResult> {
  const dir = mkdtempSync(join(tmpdir(), "bench-log-"));
  const file = join(dir, "state.json");
  const registry = newRegistry(cards);
  const store = new StateStore({
    file,
    registry,
    sync: "always",
    intervalMs: 1000,
    gen: 0,
    compactBytes: 2 ** 40,
  });
  await store.start(undefined);
  const run = await blocked(() => writes(registry, () => store.writer.commit(), seconds));
  const snapshot = await blocked(() => store.compact());
  await store.close();
  const restart = await blocked(async () => {
    const loaded = loadState(file);
    const restored = new ProjectRegistry({ clock: systemClock, defaults: registry.defaults });
    restoreProjects(restored, loaded?.projects ?? [], file);
  });
  const result: EngineResult = {
    engine: "log",
    cards,
    writesPerSecond: run.value,
    writeBlockMs: run.blockMs,
    snapshotMs: snapshot.ms,
    snapshotBlockMs: snapshot.blockMs,
    snapshotGapMs: snapshot.gapMs,
    snapshotGapCpuMs: snapshot.gapCpuMs,
    restartMs: restart.ms,
    diskMiB: diskMiB(dir),
  };
  rmSync(dir, { recursive: true, force: true });
  return result;
}
