import { compilePathPattern, type PathMatcher } from "../path-pattern.js";
import { Ring } from "./ring.js";

/** One request a project received, as the control API shows it (secrets already redacted). */
export interface JournalEntry {
  request_id: string;
  /** When the request arrived, on the project's clock. */
  time: string;
  method: string;
  path: string;
  /**
   * The operation whose route took the request, by its row's name in the operation table (`trackEvent`), a
   * request a fault or the rate limit answered before its route included; null when no row's route takes it: an
   * unknown path, a 405 or a 501.
   */
  operation: string | null;
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
  readonly operation: string | null;
  readonly status: number | null;
  entry(): JournalEntry;
}

export interface JournalFilter {
  methods?: readonly string[];
  path?: string;
  /** Operation names (the table's row names); an entry no row handled matches none. */
  operations?: readonly string[];
  /** Operation names left out; an entry no row handled is kept. */
  notOperations?: readonly string[];
  /** Exact statuses (`404`) or classes (`4xx`). */
  statuses?: readonly string[];
  /** Epoch milliseconds on the project's clock, inclusive. */
  since?: number;
  until?: number;
  /** Only the newest `limit` matches. */
  limit?: number;
}

/** The same header names in the same order, each with the same text (a repeated header's list is never shared). */
function sameHeaders(
  a: Record<string, string | string[] | undefined>,
  b: Record<string, string | string[] | undefined>,
): boolean {
  const names = Object.keys(a);
  const others = Object.keys(b);
  if (names.length !== others.length) return false;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (name !== others[i]) return false;
    const value = a[name];
    if (typeof value !== "string" || value !== b[name]) return false;
  }
  return true;
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
  readonly #lastText: { answer: string | undefined; path: string | undefined } = {
    answer: undefined,
    path: undefined,
  };
  #lastHeaders: Record<string, string | string[] | undefined> | undefined;

  constructor(capacity: number) {
    this.#ring = new Ring(capacity);
  }

  /**
   * `text`, or the equal text of the same kind (an answer, a path) kept before it: a test that reads one thing over
   * and over (and a load test) gets the same answer each time, and a full journal then keeps that text once rather
   * than a thousand times. Strings are immutable, so sharing one is invisible; comparing two costs far less than
   * keeping both.
   */
  shared(text: string | undefined, kind: "answer" | "path"): string | undefined {
    const last = this.#lastText[kind];
    if (text !== undefined && text === last) return last;
    this.#lastText[kind] = text;
    return text;
  }

  /**
   * `headers`, or the equal headers object kept before it (the same names in the same order, each with the same
   * text): a client sends the same headers call after call, and a full journal then keeps one object and its
   * strings rather than a thousand copies the collector would carry. Kept objects are never changed (the journal
   * redacts a copy when it is read), so sharing one is invisible.
   */
  sharedHeaders<H extends Record<string, string | string[] | undefined>>(headers: H): H {
    const last = this.#lastHeaders as H | undefined;
    if (last !== undefined && sameHeaders(last, headers)) return last;
    this.#lastHeaders = headers;
    return headers;
  }

  /** Records an entry made whole already. */
  record(entry: JournalEntry, capacity: number): void {
    this.recordLazily(
      {
        timeMs: Date.parse(entry.time),
        method: entry.method,
        path: entry.path,
        operation: entry.operation,
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
      if (filter.operations && (record.operation === null || !filter.operations.includes(record.operation)))
        return false;
      if (
        filter.notOperations &&
        record.operation !== null &&
        filter.notOperations.includes(record.operation)
      )
        return false;
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
