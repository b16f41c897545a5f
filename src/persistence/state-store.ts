import { createHash } from "node:crypto";
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import type { ProjectRegistry } from "../domain/projects/registry.js";
import { syncDirectory, tempFileFor } from "./atomic-write.js";
import { ChangeLog, snapshotSlices } from "./change-log.js";
import { LogBatch } from "./log-batch.js";
import { logFilesOf, SNAPSHOT_VERSION } from "./replay.js";
import { STATE_FILE_FORMAT } from "./state-file.js";
import { type StateSyncMode, StateWriter } from "./state-writer.js";

export interface StateStoreOptions {
  file: string;
  registry: ProjectRegistry;
  sync: StateSyncMode;
  intervalMs: number;
  /** The generation of the last snapshot or log found on disk (0: none). */
  gen: number;
  onError?: (error: unknown) => void;
  /** A new snapshot starts once the log passes both this and the last snapshot's size (STATE_COMPACT_BYTES). */
  compactBytes: number;
}

class CompactionStopped extends Error {
  override name = "CompactionStopped";
}

/** The log file of a running server vanished (its folder was deleted): what it holds would be lost. */
function logRemoved(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${path} was removed while in use`), { code: "ENOENT" });
}

/**
 * The state on disk as a snapshot plus a log of changes (docs/reference/persistence.md). Each save appends the batch of
 * changes made since the previous one and flushes it (one fsync for every write waiting: the writer's group
 * commit); its cost is the changes, not the state. When the log outgrows the snapshot, a new snapshot is written
 * beside it in small slices between requests, under a new log generation, and the older files are removed.
 */
export class StateStore {
  readonly file: string;
  readonly writer: StateWriter;
  readonly #registry: ProjectRegistry;
  readonly #changes: ChangeLog;
  readonly #compactBytes: number;
  readonly #onError: (error: unknown) => void;
  #gen: number;
  #log: FileHandle | undefined;
  #logBytes = 0;
  #snapshotBytes = 0;
  /** Batches not yet on disk (a failed append): written first by the next append. */
  #retry = new LogBatch();
  #truncate = false;
  /** Only a whole snapshot can save the state: none was written yet, or the log file vanished. */
  #broken = true;
  #order: Promise<unknown> = Promise.resolve();
  #compaction: Promise<void> | undefined;
  #closing = false;
  #snapshots = 0;

  constructor(options: StateStoreOptions) {
    this.file = options.file;
    this.#registry = options.registry;
    this.#gen = options.gen;
    this.#compactBytes = options.compactBytes;
    this.#onError = options.onError ?? (() => undefined);
    this.#changes = new ChangeLog(options.registry);
    this.writer = new StateWriter({
      file: options.file,
      sync: options.sync,
      intervalMs: options.intervalMs,
      save: () => this.#save(),
      onError: this.#onError,
    });
  }

  /** Snapshots written so far (compactions included). */
  get snapshots(): number {
    return this.#snapshots;
  }

  /**
   * Ready for changes: a new state gets its first snapshot; a restored one a new log after the ones replayed and,
   * when it replayed any changes, a new snapshot in the background, so crash after crash never grows the replay.
   */
  async start(restored: { replayedBytes: number } | undefined): Promise<void> {
    if (!restored) return this.#snapshot(false);
    await this.#inOrder(() => this.#switchLog(this.#gen + 1));
    this.#broken = false;
    if (restored.replayedBytes > 0) this.#compactInBackground();
  }

  /** A snapshot nobody waits for: its failure is reported, but not its giving way to a shutdown (nothing is lost). */
  #compactInBackground(): void {
    this.compact().catch((error: unknown) => {
      if (!(error instanceof CompactionStopped)) this.#onError(error);
    });
  }

  /** A snapshot now, in the background; resolves once it stands on disk. */
  compact(): Promise<void> {
    this.#compaction ??= this.#snapshot(true).finally(() => {
      this.#compaction = undefined;
    });
    return this.#compaction;
  }

  /** The last save holds every change so far; a snapshot under way is given up (the log keeps its changes). */
  async close(): Promise<void> {
    this.#closing = true;
    try {
      await this.#compaction?.catch(() => undefined);
      await this.writer.close();
    } finally {
      this.#changes.stop();
      await this.#inOrder(async () => this.#log?.close());
    }
  }

  async #save(): Promise<void> {
    if (this.#broken) {
      await this.#compaction?.catch(() => undefined);
      if (this.#broken) return this.#snapshot(false);
    }
    await this.#inOrder(() => this.#append(this.#changes.take()));
    const big = this.#logBytes > Math.max(this.#compactBytes, this.#snapshotBytes);
    if (big && !this.#closing) this.#compactInBackground();
  }

  /** Appends and switches run one at a time, in the order asked, so the log's batches keep their order. */
  #inOrder<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#order.then(task);
    this.#order = run.catch(() => undefined);
    return run;
  }

  #logPath(gen: number): string {
    return `${this.file}.log.${gen}`;
  }

  /**
   * Writes a batch (after any that failed before it) in chunks of about 64 KiB, letting requests run between
   * them: a batch that saves a snapshot or a whole state is as long as the records it names, and is never built as
   * one string. A failure leaves the log as it was (the next try truncates what this one wrote).
   */
  async #append(batch: LogBatch): Promise<void> {
    const all = this.#retry.followedBy(batch);
    const log = this.#log;
    if (all.empty) return;
    this.#retry = all;
    if (!log) throw new Error(`${this.file}: no log open`);
    if (this.#truncate) await log.truncate(this.#logBytes);
    this.#truncate = true;
    let bytes = 0;
    for (const chunk of all.chunks()) {
      await log.writeFile(chunk);
      bytes += Buffer.byteLength(chunk);
    }
    await log.datasync();
    if ((await log.stat()).nlink === 0) {
      this.#broken = true;
      throw logRemoved(this.#logPath(this.#gen));
    }
    this.#truncate = false;
    this.#retry = new LogBatch();
    this.#logBytes += bytes;
  }

  /** Later batches go to a new log file; the old one stays until a snapshot that covers it stands. */
  async #switchLog(gen: number): Promise<void> {
    const log = await open(this.#logPath(gen), "a", 0o600);
    try {
      await syncDirectory(dirname(this.file));
    } catch (error) {
      await log.close();
      throw error;
    }
    await this.#log?.close().catch(() => undefined);
    this.#log = log;
    this.#gen = gen;
    this.#logBytes = 0;
    this.#truncate = false;
  }

  /**
   * A new generation: the log switches first, then every project is written to a temporary file a slice at a
   * time, letting requests run between slices. Records changed meanwhile are in the new log, which is flushed
   * before the snapshot is renamed into place, so snapshot plus log always replay to a state that existed.
   */
  async #snapshot(background: boolean): Promise<void> {
    const gen = this.#gen + 1;
    await this.#inOrder(() => this.#switchLog(gen));
    const temp = tempFileFor(this.file);
    const handle = await open(temp, "w", 0o600);
    let bytes = 0;
    try {
      const saved_at = new Date(this.#registry.clock.now()).toISOString();
      const head = { o: "snapshot", format: STATE_FILE_FORMAT, version: SNAPSHOT_VERSION, gen, saved_at };
      // The end line carries a checksum of everything before it: a restart trusts the records it wrote only
      // when they are exactly those, and validates them one by one otherwise.
      const hash = createHash("sha256");
      const headLine = `${JSON.stringify(head)}\n`;
      hash.update(headLine);
      await handle.writeFile(headLine);
      for (const slice of snapshotSlices(this.#registry)) {
        hash.update(slice);
        await handle.writeFile(slice);
        bytes += slice.length;
        // Requests run between slices; a closing server does not wait for a compaction (the log has it all).
        await new Promise((resolve) => setImmediate(resolve));
        if (background && this.#closing) throw new CompactionStopped("the server is closing");
      }
      await handle.writeFile(`{"o":"end","sha256":"${hash.digest("hex")}"}\n`);
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    await handle.close();
    await this.#inOrder(() => this.#append(this.#changes.take()));
    await rename(temp, this.file);
    await syncDirectory(dirname(this.file));
    this.#broken = false;
    this.#snapshotBytes = bytes;
    this.#snapshots += 1;
    for (const log of logFilesOf(this.file)) if (log.gen < gen) await unlink(log.path).catch(() => undefined);
  }
}
