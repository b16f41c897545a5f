import { compilePathPattern, type PathMatcher } from "../../domain/shared/path-pattern.js";
import { Ring } from "./ring.js";

/** One request a project received, as the control API shows it (secrets already redacted). */
export interface JournalEntry {
  request_id: string;
  /** When the request arrived, on the project's clock. */
  time: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[]>;
  /** The parsed body when the operation read it, the raw text when it could not parse it, else null. */
  body: unknown;
  /** null when no response was sent (the connection was dropped). */
  status: number | null;
  response_body: unknown;
  /** Wall-clock time the server took, injected latency included. */
  duration_ms: number;
  /** Whether the request carried a valid credential of the project (see docs/guide/control.md). */
  authenticated: boolean;
  fault: { id: string; action: string } | null;
  rate_limited: boolean;
}

/**
 * A journaled request as the ring keeps it: what the filters read, at hand, and the entry itself, which may be
 * built only when the journal is read (the lazy journal, http/fast/lazy-journal.ts); whoever records so must keep
 * the materials of `entry()` unchanging and return a new entry on every call.
 */
export interface JournalRecord {
  readonly timeMs: number;
  readonly method: string;
  readonly path: string;
  readonly status: number | null;
  entry(): JournalEntry;
}

export interface JournalFilter {
  methods?: readonly string[];
  path?: string;
  /** Exact statuses (`404`) or classes (`4xx`). */
  statuses?: readonly string[];
  /** Epoch milliseconds on the project's clock, inclusive. */
  since?: number;
  until?: number;
  /** Only the newest `limit` matches. */
  limit?: number;
}

function statusMatches(patterns: readonly string[], status: number | null): boolean {
  if (status === null) return false;
  const text = String(status);
  return patterns.some((pattern) => (/^[1-5]xx$/i.test(pattern) ? text[0] === pattern[0] : pattern === text));
}

/**
 * The request journal of one project: a ring of the newest entries, so an application can be checked after the
 * fact ("what did it send?") without the server growing without bound.
 */
export class RequestJournal {
  readonly #ring: Ring<JournalRecord>;
  #watcher: ((record: JournalRecord) => void) | undefined;
  #lastAnswer: string | undefined;

  constructor(capacity: number) {
    this.#ring = new Ring(capacity);
  }

  /**
   * `text`, or the equal text of the answer kept before it: a test that reads one thing over and over (and a load
   * test) gets the same answer each time, and a full journal then keeps that text once rather than a thousand
   * times. Strings are immutable, so sharing one is invisible; comparing two costs far less than keeping both.
   */
  shared(text: string | undefined): string | undefined {
    if (text !== undefined && text === this.#lastAnswer) return this.#lastAnswer;
    this.#lastAnswer = text;
    return text;
  }

  /** Records an entry made whole already. */
  record(entry: JournalEntry, capacity: number): void {
    this.recordLazily(
      {
        timeMs: Date.parse(entry.time),
        method: entry.method,
        path: entry.path,
        status: entry.status,
        entry: () => entry,
      },
      capacity,
    );
  }

  recordLazily(record: JournalRecord, capacity: number): void {
    this.#ring.resize(capacity);
    this.#ring.push(record);
    this.#watcher?.(record);
  }

  /** One watcher (the registry's, for the live feed), told of every record appended. */
  watch(watcher: ((record: JournalRecord) => void) | undefined): void {
    this.#watcher = watcher;
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const methods = filter.methods?.map((method) => method.toUpperCase());
    const path: PathMatcher | undefined =
      filter.path === undefined ? undefined : compilePathPattern(filter.path);
    const matches = this.#ring.toArray().filter((record) => {
      if (methods && !methods.includes(record.method)) return false;
      if (path && !path(record.path)) return false;
      if (filter.statuses && !statusMatches(filter.statuses, record.status)) return false;
      if (filter.since !== undefined && record.timeMs < filter.since) return false;
      if (filter.until !== undefined && record.timeMs > filter.until) return false;
      return true;
    });
    const newest =
      filter.limit === undefined ? matches : filter.limit > 0 ? matches.slice(-filter.limit) : [];
    return newest.map((record) => record.entry());
  }

  resize(capacity: number): void {
    this.#ring.resize(capacity);
  }

  clear(): number {
    return this.#ring.clear();
  }

  get size(): number {
    return this.#ring.size;
  }

  get capacity(): number {
    return this.#ring.capacity;
  }
}
