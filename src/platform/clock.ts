/**
 * Every reading of "now" goes through a Clock so that tests (and, later, the control API) can move time.
 * The root clock is injected into createApp; each project wraps it in its own ProjectClock so that moving
 * one project's time never moves another's (FIDELITY.md: "each project has its own").
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to: the root clock of deterministic tests. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start: Date | string | number = "2026-11-20T10:00:00.000Z") {
    this.#now = new Date(start).getTime();
  }

  now(): number {
    return this.#now;
  }

  advance(seconds: number): void {
    this.#now += seconds * 1000;
  }

  set(at: Date | string | number): void {
    this.#now = new Date(at).getTime();
  }
}

/**
 * A project's view of time: the root clock plus an offset the project may move, or, while frozen, one moment that
 * stands still until moved or unfrozen (snapshot tests: every timestamp and expiry the same on every run).
 */
export class ProjectClock implements Clock {
  readonly #root: Clock;
  #offsetMs = 0;
  #frozenAt: number | undefined;
  #isoOf = Number.NaN;
  #iso = "";

  constructor(root: Clock, offsetMs = 0, frozenAt?: number) {
    this.#root = root;
    this.#offsetMs = offsetMs;
    this.#frozenAt = frozenAt;
  }

  now(): number {
    return this.#frozenAt ?? this.#root.now() + this.#offsetMs;
  }

  /** The current moment as the service writes timestamps: ISO 8601 UTC with milliseconds. */
  iso(): string {
    // Under load many writes fall in one millisecond (an assignment asks three times): the text is made once per
    // millisecond rather than once per call.
    const now = this.now();
    if (now !== this.#isoOf) {
      this.#isoOf = now;
      this.#iso = new Date(now).toISOString();
    }
    return this.#iso;
  }

  advance(seconds: number): void {
    if (this.#frozenAt !== undefined) this.#frozenAt += seconds * 1000;
    else this.#offsetMs += seconds * 1000;
  }

  set(at: Date | string | number): void {
    if (this.#frozenAt !== undefined) this.#frozenAt = new Date(at).getTime();
    else this.#offsetMs = new Date(at).getTime() - this.#root.now();
  }

  /** Stops the clock at the moment it shows; a frozen clock stays as it is. */
  freeze(): void {
    if (this.#frozenAt === undefined) this.#frozenAt = this.now();
  }

  /** Lets the clock run again from the moment it shows. */
  unfreeze(): void {
    if (this.#frozenAt === undefined) return;
    this.#offsetMs = this.#frozenAt - this.#root.now();
    this.#frozenAt = undefined;
  }

  /** How far the clock runs from the root's (while frozen, as it last ran: a stable value for the state file). */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** The moment a frozen clock shows; undefined while it runs. */
  get frozenAt(): number | undefined {
    return this.#frozenAt;
  }
}
