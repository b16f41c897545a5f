import { type FileIo, nodeFileIo, writeFileAtomic } from "./atomic-write.js";

/**
 * `interval`: changes are saved together, at most `intervalMs` after the first unsaved one (a crash loses at most
 * that much). `always`: a change is acknowledged only once a save holding it is on disk.
 */
export const STATE_SYNC_MODES = ["interval", "always"] as const;
export type StateSyncMode = (typeof STATE_SYNC_MODES)[number];

export interface StateWriterOptions {
  file: string;
  /** The whole state as text, taken in one synchronous step so that it is consistent. */
  snapshot: () => string;
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
 */
export class StateWriter {
  readonly file: string;
  readonly sync: StateSyncMode;
  readonly intervalMs: number;
  readonly #snapshot: () => string;
  readonly #onError: (error: unknown) => void;
  readonly #io: FileIo;

  #dirty = false;
  #waiters: Waiter[] = [];
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #closed = false;
  #saves = 0;

  constructor(options: StateWriterOptions) {
    this.file = options.file;
    this.sync = options.sync;
    this.intervalMs = options.intervalMs;
    this.#snapshot = options.snapshot;
    this.#onError = options.onError ?? (() => undefined);
    this.#io = options.io ?? nodeFileIo;
  }

  /** How many saves reached the disk. */
  get saves(): number {
    return this.#saves;
  }

  get dirty(): boolean {
    return this.#dirty;
  }

  /**
   * Something changed. In `interval` mode the save comes at most `intervalMs` later; later changes do not push
   * it back, so a steady stream of changes is still saved every interval. In `always` mode it starts at once.
   */
  markDirty(): void {
    if (this.#closed) return;
    this.#dirty = true;
    if (this.sync === "always") this.#start();
    else this.#timer ??= setTimeout(() => this.#start(), this.intervalMs);
  }

  /** Something changed; resolves once a save taken after this call is on disk (rejects if that save fails). */
  commit(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#dirty = true;
      this.#start();
    });
  }

  /** Saves now whatever is unsaved (or the whole state, with `force`), and resolves once it is on disk. */
  async flush(options: { force?: boolean } = {}): Promise<void> {
    if (options.force || this.#dirty || this.#waiters.length > 0) await this.commit();
    else await this.#running;
  }

  /** Resolves once no save is running (a save already scheduled for later does not count). */
  async whenIdle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /**
   * The last save, then no more: changes reported afterwards are ignored. If that save fails the promise rejects
   * with its error (the caller learns the state is not on disk) and no retry keeps the process alive.
   */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.#closed = true;
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Starts the save loop unless it runs; a running loop looks again for work when it ends. */
  #start(): void {
    if (this.#running) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // Wait one turn of the event loop so that requests finishing together share the first save too.
    this.#running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#loop())
      .then((saved) => {
        this.#running = undefined;
        this.#afterLoop(saved);
      });
  }

  /**
   * Work that arrived after the loop's last look: a waiter always gets a save of its own (after a failure too:
   * each attempt answers the waiters it holds, so this cannot spin); other unsaved changes get one at once in
   * `always` mode unless a save just failed, else within the interval.
   */
  #afterLoop(saved: boolean): void {
    if (!this.#dirty) return;
    if (this.#waiters.length > 0 || (saved && this.sync === "always")) this.#start();
    else if (!this.#closed) this.#timer ??= setTimeout(() => this.#start(), this.intervalMs);
  }

  /**
   * Saves, and saves again while a waiter wants it or, in `always` mode, while changes came in during the save;
   * in `interval` mode those wait for the next interval. False when a save failed.
   */
  async #loop(): Promise<boolean> {
    let first = true;
    while (this.#dirty && (first || this.#waiters.length > 0 || this.sync === "always")) {
      first = false;
      const waiters = this.#waiters;
      this.#waiters = [];
      this.#dirty = false;
      try {
        await writeFileAtomic(this.file, this.#snapshot(), this.#io);
        this.#saves += 1;
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        // Nothing is dropped: the changes stay unsaved, and a later change, the interval or a flush saves them.
        this.#dirty = true;
        for (const waiter of waiters) waiter.reject(error);
        this.#onError(error);
        return false;
      }
    }
    return true;
  }
}
