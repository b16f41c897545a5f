/**
 * The requests a fault rule holds back (`latency_ms`, up to a minute), so that a stopping server lets them go at
 * once rather than wait them out. `docker stop` gives a container 10 s before it kills it: a request held 15 s kept
 * the server's drain waiting until its own limit, and the state was saved with a millisecond to spare. Released,
 * each held request goes on as its rule says (its answer, or the rule's error), is journaled like any other, and
 * the drain finishes as soon as the answers are out.
 */
export class HeldRequests {
  readonly #held = new Set<() => void>();
  #released = false;

  /** Runs `go` after `ms`, or at once when the server stops first (or has already begun to stop). */
  hold(ms: number, go: () => void): void {
    if (this.#released) {
      go();
      return;
    }
    const run = () => {
      clearTimeout(timer);
      if (!this.#held.delete(run)) return;
      go();
    };
    const timer = setTimeout(run, ms);
    this.#held.add(run);
  }

  get size(): number {
    return this.#held.size;
  }

  /** The server is stopping: every held request goes on now, and any held from now on is not held. */
  release(): void {
    this.#released = true;
    for (const run of [...this.#held]) run();
  }
}
