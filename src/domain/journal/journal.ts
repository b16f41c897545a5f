import { compilePathPattern, type PathMatcher } from "../shared/path-pattern.js";
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
  /** Whether the request carried a valid credential of the project (see README "Request journal"). */
  authenticated: boolean;
  fault: { id: string; action: string } | null;
  rate_limited: boolean;
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
  readonly #ring: Ring<{ entry: JournalEntry; timeMs: number }>;

  constructor(capacity: number) {
    this.#ring = new Ring(capacity);
  }

  record(entry: JournalEntry, capacity: number): void {
    this.#ring.resize(capacity);
    this.#ring.push({ entry, timeMs: Date.parse(entry.time) });
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const methods = filter.methods?.map((method) => method.toUpperCase());
    const path: PathMatcher | undefined =
      filter.path === undefined ? undefined : compilePathPattern(filter.path);
    const matches = this.#ring
      .toArray()
      .filter(({ entry, timeMs }) => {
        if (methods && !methods.includes(entry.method)) return false;
        if (path && !path(entry.path)) return false;
        if (filter.statuses && !statusMatches(filter.statuses, entry.status)) return false;
        if (filter.since !== undefined && timeMs < filter.since) return false;
        if (filter.until !== undefined && timeMs > filter.until) return false;
        return true;
      })
      .map(({ entry }) => entry);
    if (filter.limit === undefined) return matches;
    return filter.limit > 0 ? matches.slice(-filter.limit) : [];
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
