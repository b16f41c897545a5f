import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COLLECTION_NAMES, projectDocumentSchema } from "../src/domain/projects/project-document.js";
import { ProjectRegistry } from "../src/domain/projects/registry.js";
import { collectionView } from "../src/domain/projects/state-export.js";
import { systemClock } from "../src/platform/clock.js";
import { blocked, diskMiB, type EngineResult, newRegistry, writes } from "./persistence-engines.js";

/** The SQLite side of bench:persistence: one row per record, a group commit one transaction. */
interface Statement {
  run(...args: unknown[]): unknown;
  iterate(...args: unknown[]): Iterable<Record<string, string>>;
}
interface Database {
  pragma(text: string): unknown;
  exec(text: string): void;
  prepare(text: string): Statement;
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
  close(): void;
}

/** better-sqlite3 when it is installed (`npm install --no-save better-sqlite3`), else undefined. */
export function sqlite(): (new (file: string) => Database) | undefined {
  try {
    return createRequire(import.meta.url)("better-sqlite3") as new (
      file: string,
    ) => Database;
  } catch {
    return undefined;
  }
}

/** One row per record; a group commit is one transaction of the records changed since the last. */
export async function benchSqlite(cards: number, seconds: number): Promise<EngineResult | undefined> {
  const Sqlite = sqlite();
  if (!Sqlite) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "bench-sqlite-"));
  const file = join(dir, "state.db");
  const registry = newRegistry(cards);
  const project = registry.get("bench");
  let db = new Sqlite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec("CREATE TABLE records (c TEXT, k TEXT, r TEXT, PRIMARY KEY (c, k)) WITHOUT ROWID");
  const upsert = db.prepare("INSERT OR REPLACE INTO records (c, k, r) VALUES (?, ?, ?)");
  const write = db.transaction((rows: [string, string, string][]) => {
    for (const row of rows) upsert.run(...row);
  });
  // Like the log's snapshot, the rows hold the fixtures (what a reset goes back to) as well as the state.
  const first = await blocked(async () => {
    const rows: [string, string, string][] = [];
    const fixtures = registry.fixturesOf("bench") as unknown as Record<string, { id?: string }[]>;
    for (const c of COLLECTION_NAMES) {
      for (const [k, r] of collectionView(project, c).entries()) rows.push([c, k, JSON.stringify(r)]);
      for (const [i, r] of (fixtures[c] ?? []).entries()) rows.push([`f:${c}`, String(i), JSON.stringify(r)]);
    }
    write(rows);
  });
  // Group commit: the changes noted since the last commit, written in one transaction on the next turn.
  const dirty = new Set<string>();
  let waiting: (() => void)[] = [];
  project.watch((c, k) => dirty.add(`${c}\0${k}`));
  const commit = () =>
    new Promise<void>((resolve) => {
      if (waiting.push(resolve) > 1) return;
      setImmediate(() => {
        const rows = [...dirty].map((slot) => {
          const [c, k] = slot.split("\0") as [(typeof COLLECTION_NAMES)[number], string];
          return [c, k, JSON.stringify(collectionView(project, c).get(k))] as [string, string, string];
        });
        dirty.clear();
        const done = waiting;
        waiting = [];
        write(rows);
        for (const resolve of done) resolve();
      });
    });
  const run = await blocked(() => writes(registry, commit, seconds));
  const checkpoint = await blocked(async () => db.pragma("wal_checkpoint(TRUNCATE)"));
  db.close();
  // Read back and validated as the log's restart does: fixtures and state, each checked like fixtures.
  const restart = await blocked(async () => {
    db = new Sqlite(file);
    const header = { id: "bench", settings: {}, clock: { offset_ms: 0 } };
    const state: Record<string, unknown> = { project: header };
    const fixtures: Record<string, unknown> = { project: header };
    for (const c of COLLECTION_NAMES) {
      state[c] = [];
      fixtures[c] = [];
    }
    for (const row of db.prepare("SELECT c, r FROM records").iterate()) {
      const c = row.c as string;
      const into = c.startsWith("f:") ? fixtures[c.slice(2)] : state[c];
      (into as unknown[]).push(JSON.parse(row.r as string));
    }
    const restored = new ProjectRegistry({ clock: systemClock, defaults: registry.defaults });
    restored.restore(projectDocumentSchema.parse(fixtures), projectDocumentSchema.parse(state));
    db.close();
  });
  const result: EngineResult = {
    engine: "sqlite",
    cards,
    writesPerSecond: run.value,
    writeBlockMs: run.blockMs,
    snapshotMs: first.ms + checkpoint.ms,
    // better-sqlite3 is synchronous: the bulk write and the checkpoint hold the event loop for all their time.
    snapshotBlockMs: Math.max(first.ms, checkpoint.ms),
    restartMs: restart.ms,
    diskMiB: diskMiB(dir),
  };
  rmSync(dir, { recursive: true, force: true });
  return result;
}
