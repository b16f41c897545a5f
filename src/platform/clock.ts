/**
 * Every reading of "now" goes through a Clock so that tests (and, later, the control API) can move time.
 * The root clock is injected into createApp; each project wraps it in its own ProjectClock so that moving
 * one project's time never moves another's (docs/guide/concepts.md, "Clock").
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * The instants a state file holds: ISO 8601 in UTC with a four-digit year, as the service writes them, from
 * 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (`+010000-…` or `-000001-…` is no timestamp of the format).
 */
const STORED_MIN_MS = Date.parse("0000-01-01T00:00:00.000Z");
const STORED_MAX_MS = Date.parse("9999-12-31T23:59:59.999Z");
/**
 * The furthest ahead of its clock a project stores an instant: the end of a blocked or deleted key's grace (at most
 * LOYALTY_MOCK_TOKEN_GRACE_SECONDS' 86,400 s); a token's expiry is 900 s ahead. test/platform/clock.test.ts holds
 * it to both.
 */
export const LONGEST_LEAD_MS = 86_400_000;
/** What a project's clock may show: whatever it stores from there on stays within STORED_MIN_MS..STORED_MAX_MS. */
export const CLOCK_MIN_MS = STORED_MIN_MS;
export const CLOCK_MAX_MS = STORED_MAX_MS - LONGEST_LEAD_MS;
/** The most a running clock's offset from the server's may be: enough to reach any instant of the range. */
export const CLOCK_OFFSET_LIMIT_MS = CLOCK_MAX_MS - CLOCK_MIN_MS;

/** The range in words: `0000-01-01T00:00:00.000Z to 9999-12-30T23:59:59.999Z`. */
export const CLOCK_RANGE = `${new Date(CLOCK_MIN_MS).toISOString()} to ${new Date(CLOCK_MAX_MS).toISOString()}`;

/** Why a project's clock cannot show `ms` (the range in words), or undefined when it can. */
export function clockRangeProblem(ms: number): string | undefined {
  if (ms >= CLOCK_MIN_MS && ms <= CLOCK_MAX_MS) return undefined;
  const shown = Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms);
  return `A project clock shows instants from ${CLOCK_RANGE} (what the state file can hold, less a day for what is stored ahead of the clock); this would put it at ${shown}`;
}

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
    if (this.#frozenAt !== undefined) return this.#frozenAt;
    const now = this.#root.now() + this.#offsetMs;
    if (now <= CLOCK_MAX_MS && now >= CLOCK_MIN_MS) return now;
    // Moves are refused past either end of the range; a running clock that reaches one with time stops there, so
    // nothing it stamps (or stores ahead of it) ever leaves what the state file can hold.
    this.#frozenAt = now > CLOCK_MAX_MS ? CLOCK_MAX_MS : CLOCK_MIN_MS;
    return this.#frozenAt;
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
