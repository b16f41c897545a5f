import { type FileIo, nodeFileIo, writeFileAtomic } from "./atomic-write.js";

/**
 * `interval`: changes are saved together, at most `intervalMs` after the first unsaved one (a crash loses at most
 * that much). `always`: a change is acknowledged only once a save holding it is on disk.
 */
export const STATE_SYNC_MODES = ["interval", "always"] as const;
export type StateSyncMode = (typeof STATE_SYNC_MODES)[number];

export interface StateWriterOptions {
  file: string;
  /** The whole state as text, taken in one synchronous step so that it is consistent (unless `save` is given). */
  snapshot?: () => string;
  /**
   * Saves every change so far instead of writing `snapshot()` whole (the change log's append, see state-store.ts).
   * It must take what it saves in the synchronous part of the call: changes made later belong to the next save.
   */
  save?: () => Promise<void>;
  sync: StateSyncMode;
  intervalMs: number;
  /** A save that failed; the writer keeps the changes and tries again. */
  onError?: (error: unknown) => void;
  io?: FileIo;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Saves a changing state to one file without ever leaving it half-written, batching changes: however many
 * arrive while a save is running, the next save holds them all (group commit), so a busy server does one write
 * per disk round trip rather than one per change.
 *
 * Three flags drive it, each kept true to its name on every path: `#dirty` (a change no save has taken yet),
 * `#due` (a save of those changes should start as soon as none runs) and `#timer` (armed, never a timer that has
 * already fired: its callback clears it). A save that is running when a save falls due is followed at once by
 * another, so nothing that falls due during a long save is dropped.
 */
export class StateWriter {
  readonly file: string;
  readonly sync: StateSyncMode;
  readonly intervalMs: number;
  readonly #save: () => Promise<void>;
  readonly #onError: (error: unknown) => void;

  #dirty = false;
  #due = false;
  #waiters: Waiter[] = [];
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #closed = false;
  #saves = 0;

  constructor(options: StateWriterOptions) {
    this.file = options.file;
    this.sync = options.sync;
    this.intervalMs = options.intervalMs;
    this.#onError = options.onError ?? (() => undefined);
    const io = options.io ?? nodeFileIo;
    const { save, snapshot } = options;
    if (save) this.#save = save;
    else if (snapshot) this.#save = () => writeFileAtomic(this.file, snapshot(), io);
    else throw new TypeError("StateWriter needs a snapshot or a save function");
  }

  /** How many saves reached the disk. */
  get saves(): number {
    return this.#saves;
  }

  get dirty(): boolean {
    return this.#dirty;
  }

  /**
   * Something changed. In `interval` mode a save holding it starts at most `intervalMs` later, or as soon as the
   * save running then ends; later changes do not push it back, so a steady stream of changes is still saved every
   * interval. In `always` mode it starts at once.
   */
  markDirty(): void {
    if (this.#closed) return;
    this.#dirty = true;
    if (this.sync === "always") this.#request();
    else this.#arm();
  }

  /** Something changed; resolves once a save taken after this call is on disk (rejects if that save fails). */
  commit(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#dirty = true;
      this.#request();
    });
  }

  /**
   * Saves now whatever is unsaved (or the whole state, with `force`), and resolves once it is on disk. A save
   * already running holds every change so far: it is waited for, and followed by one more only if it failed.
   */
  async flush(options: { force?: boolean } = {}): Promise<void> {
    if (!options.force && !this.#dirty && this.#waiters.length === 0) await this.#running;
    if (options.force || this.#dirty || this.#waiters.length > 0) await this.commit();
  }

  /** Resolves once no save is running (a save already scheduled for later does not count). */
  async whenIdle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /**
   * The last save, holding every change reported before this call; changes reported afterwards are ignored. If
   * that save fails the promise rejects with its error (the caller learns the state is not on disk) and no retry
   * keeps the process alive.
   */
  async close(): Promise<void> {
    this.#closed = true;
    try {
      await this.flush();
    } finally {
      this.#disarm();
    }
  }

  /** A save falls due an interval from now, unless one is already set to: the first unsaved change sets the time. */
  #arm(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#request();
    }, this.intervalMs);
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** A save is due now: it starts unless one runs, and a running one is followed by it. */
  #request(): void {
    this.#due = true;
    if (this.#running) return;
    // Wait one turn of the event loop so that requests finishing together share the first save too.
    this.#running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#loop())
      .then(() => {
        this.#running = undefined;
        // Work reported after the loop's last look (a retry made from a rejected commit, say).
        if (this.#due) this.#request();
      });
  }

  /** Saves while a save is due, each holding every change made until it starts. */
  async #loop(): Promise<void> {
    while (this.#due) {
      this.#due = false;
      if (!this.#dirty) continue;
      // This save holds every change so far, so the interval they set no longer needs to run.
      this.#disarm();
      const waiters = this.#waiters;
      this.#waiters = [];
      this.#dirty = false;
      try {
        await this.#save();
        this.#saves += 1;
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        this.#failed(error, waiters);
      }
    }
  }

  /**
   * Nothing is dropped: the changes stay unsaved and are tried again an interval later (in both modes), at once
   * only for a waiter that came during the failed save and wants an answer of its own. Retrying everything at once
   * would spin on a full disk; each attempt answers the waiters it holds, so this cannot.
   */
  #failed(error: unknown, waiters: Waiter[]): void {
    this.#dirty = true;
    this.#due = this.#waiters.length > 0;
    if (!this.#closed) this.#arm();
    for (const waiter of waiters) waiter.reject(error);
    try {
      this.#onError(error);
    } catch {
      // A listener that throws (a broken log destination) must not leave the writer stuck in a save forever.
    }
  }
}
