/**
 * What changed in a project, told to whoever watches it (the dashboard's live feed, GET /__mock/projects/{id}/feed).
 * Topics name what to fetch again, never the data itself: `records` (with the collections written), `requests`
 * (journal entries appended, with a short summary of each), `clock`, `project` (reset, replaced, created,
 * removed), `faults`, `settings`, `keys`, `webhooks`, or any other name a module announces.
 */
export type FeedTopic = string;

/** A journal entry as the feed tells it: enough for a row to blink in, the page fetches the rest. */
export interface RequestSummary {
  method: string;
  path: string;
  status: number | null;
  /** The operation whose route took it, by its row's name (`trackEvent`); null when no row's route takes it. */
  operation: string | null;
  /** Epoch milliseconds on the project's clock. */
  time_ms: number;
}

/** One coalesced message: everything that changed in a project during one batching window. */
export interface FeedBatch {
  topics: FeedTopic[];
  collections: string[];
  requests: RequestSummary[];
  /** Journal entries appended in the window; `requests` holds only the newest REQUEST_SUMMARIES of them. */
  requests_count: number;
}

export type FeedListener = (batch: FeedBatch) => void;

/** A load test appends thousands of entries a second: the page needs to know it happened, not each one. */
export const REQUEST_SUMMARIES = 20;

interface Pending {
  topics: Set<FeedTopic>;
  collections: Set<string>;
  requests: RequestSummary[];
  requestsCount: number;
}

/**
 * The listeners of every project and the changes waiting to be told. Nothing is done for a project no one
 * watches (one map lookup), and a watched project's changes are gathered for `delayMs` and told as one batch, so
 * a storm of requests costs each listener a message per window rather than one per request. Keyed by project id,
 * not by Project object, so a watcher stays subscribed across a reset or a state import.
 */
export class ChangeFeed {
  readonly #listeners = new Map<string, Set<FeedListener>>();
  readonly #pending = new Map<string, Pending>();
  readonly #ends = new Map<FeedListener, () => void>();
  readonly #delayMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: { delayMs?: number } = {}) {
    this.#delayMs = options.delayMs ?? 100;
  }

  /**
   * Starts telling `listener` the project's changes; returns the function that stops it. `end` is called if the
   * feed closes first (the server stops), so a stream can end rather than hold the server's close.
   */
  subscribe(projectId: string, listener: FeedListener, end?: () => void): () => void {
    let listeners = this.#listeners.get(projectId);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(projectId, listeners);
    }
    listeners.add(listener);
    if (end) this.#ends.set(listener, end);
    return () => {
      this.#ends.delete(listener);
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(projectId) === listeners)
        this.#listeners.delete(projectId);
    };
  }

  /** Whether anyone watches the project: all a change costs when nobody does. */
  watched(projectId: string): boolean {
    return this.#listeners.has(projectId);
  }

  announce(projectId: string, topic: FeedTopic): void {
    const pending = this.#pendingOf(projectId);
    pending?.topics.add(topic);
  }

  /** A record of `collection` was put or deleted. */
  recordChanged(projectId: string, collection: string): void {
    const pending = this.#pendingOf(projectId);
    if (!pending) return;
    pending.topics.add("records");
    pending.collections.add(collection);
  }

  /** A journal entry was appended; `summary` is only called for a watched project. */
  requestJournaled(projectId: string, summary: () => RequestSummary): void {
    const pending = this.#pendingOf(projectId);
    if (!pending) return;
    pending.topics.add("requests");
    pending.requestsCount++;
    pending.requests.push(summary());
    if (pending.requests.length > REQUEST_SUMMARIES) pending.requests.shift();
  }

  /** Tells every listener now what is waiting (the server's close, and tests that do not wait for the timer). */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batches = [...this.#pending];
    this.#pending.clear();
    for (const [projectId, pending] of batches) {
      const batch: FeedBatch = {
        topics: [...pending.topics],
        collections: [...pending.collections],
        requests: pending.requests,
        requests_count: pending.requestsCount,
      };
      for (const listener of this.#listeners.get(projectId) ?? []) listener(batch);
    }
  }

  /** Tells what is waiting, then ends every subscription. */
  close(): void {
    this.flush();
    const ends = [...this.#ends.values()];
    this.#ends.clear();
    this.#listeners.clear();
    for (const end of ends) end();
  }

  #pendingOf(projectId: string): Pending | undefined {
    if (!this.#listeners.has(projectId)) return undefined;
    let pending = this.#pending.get(projectId);
    if (!pending) {
      pending = { topics: new Set(), collections: new Set(), requests: [], requestsCount: 0 };
      this.#pending.set(projectId, pending);
    }
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), this.#delayMs);
      // A batch waiting must not keep a process alive on its own.
      this.#timer.unref?.();
    }
    return pending;
  }
}
