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

/** A project's view of time: the root clock plus an offset the project may move. */
export class ProjectClock implements Clock {
  readonly #root: Clock;
  #offsetMs = 0;

  constructor(root: Clock, offsetMs = 0) {
    this.#root = root;
    this.#offsetMs = offsetMs;
  }

  now(): number {
    return this.#root.now() + this.#offsetMs;
  }

  /** The current moment as the service writes timestamps: ISO 8601 UTC with milliseconds. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000;
  }

  set(at: Date | string | number): void {
    this.#offsetMs = new Date(at).getTime() - this.#root.now();
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }
}
