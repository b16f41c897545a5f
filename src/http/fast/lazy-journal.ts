import type { JournalEntry, JournalRecord } from "../../emulation/journal/journal.js";

/** What the journal's filters read of a record, at hand without building its entry. */
export type RecordHead = Pick<JournalRecord, "timeMs" | "method" | "path" | "status">;

/**
 * A journaled exchange whose entry is built from its materials, by `build`, each time the journal is read, rather
 * than once when the request ends: requests are many and reads are few. `build` must make a new entry on every
 * call (so no reader can change what the next one sees), and nobody may change the materials afterwards.
 *
 * A class of its own rather than a closure made inside the journal middleware, whose scope holds the request and
 * the response: a closure there would keep them (and their socket's buffers) alive for as long as the entry stays
 * in the ring.
 */
export class DeferredEntry<M> implements JournalRecord {
  readonly #materials: M;
  readonly #build: (materials: M) => JournalEntry;
  readonly timeMs: number;
  readonly method: string;
  readonly path: string;
  readonly status: number | null;

  constructor(head: RecordHead, materials: M, build: (materials: M) => JournalEntry) {
    this.timeMs = head.timeMs;
    this.method = head.method;
    this.path = head.path;
    this.status = head.status;
    this.#materials = materials;
    this.#build = build;
  }

  entry(): JournalEntry {
    return this.#build(this.#materials);
  }
}
