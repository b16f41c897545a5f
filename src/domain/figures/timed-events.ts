import { lowerBound } from "./sorted-tally.js";

/**
 * One customer's events of one type, in the store's order, with their times: which of them is nearest a moment
 * (the activity view's points for a journaled POST /v1/events). While the times rise with the store's order, as
 * they do on a clock that only moves forward, that is a binary search; after the clock was moved back, a scan.
 * Either way the answer is a scan's: the nearest, and of equally near ones the first in the store's order.
 */
export class TimedEvents<E extends { readonly created_at: string }> {
  readonly #events: E[] = [];
  readonly #times: number[] = [];
  #ascending = true;

  /** An event new to the store, so last in its order. */
  add(event: E): void {
    const at = Date.parse(event.created_at);
    const last = this.#times[this.#times.length - 1];
    if (last !== undefined && !(at >= last)) this.#ascending = false;
    this.#events.push(event);
    this.#times.push(at);
  }

  nearest(at: number): E | undefined {
    const times = this.#times;
    if (!this.#ascending || Number.isNaN(at)) return this.#scan(at);
    const i = lowerBound(times, at);
    if (i === 0) return this.#events[0];
    const before = times[i - 1] as number;
    // The first of the events at the nearest earlier time comes before any later one in the store's order.
    if (i === times.length || at - before <= (times[i] as number) - at)
      return this.#events[lowerBound(times, before)];
    return this.#events[i];
  }

  #scan(at: number): E | undefined {
    let best: E | undefined;
    let bestGap = 0;
    for (let i = 0; i < this.#events.length; i++) {
      const gap = Math.abs((this.#times[i] as number) - at);
      if (best === undefined || gap < bestGap) {
        best = this.#events[i];
        bestGap = gap;
      }
    }
    return best;
  }
}
