import { TargetUnusable } from "./exchange.js";

/**
 * The target's call budget. A sandbox project allows 100 API calls an hour, shared with whatever else uses it; a
 * run makes fewer than 40. Each answer's `X-Rate-Limit-Remaining` says what is left, and the run stops, saying so,
 * before a call it could not finish the run with: a half-spent budget is better than a locked sandbox.
 */
const MAX_CALLS = 40;

/** The budget cannot carry the run to its end (or the target refused with 429): exit 3. */
export class BudgetExhausted extends TargetUnusable {
  override name = "BudgetExhausted";
}

export class Budget {
  #used = 0;
  #remaining: number | undefined;

  get used(): number {
    return this.#used;
  }

  /** Before a call, with the calls the run still needs, this one included. */
  spend(needed: number): void {
    if (this.#used >= MAX_CALLS)
      throw new BudgetExhausted(`the run made ${this.#used} calls to the target, the most one run may make`);
    if (this.#remaining !== undefined && this.#remaining < needed)
      throw new BudgetExhausted(
        `the target allows ${this.#remaining} more calls now (X-Rate-Limit-Remaining) and the run needs ${needed}; stopped before using them up. Run again once its window resets.`,
      );
    this.#used += 1;
  }

  /** After a call: what the target says is left, and its refusal when it rate-limits. */
  read(status: number, headers: Record<string, string>): void {
    const remaining = Number.parseInt(headers["x-rate-limit-remaining"] ?? "", 10);
    if (Number.isFinite(remaining)) this.#remaining = remaining;
    if (status === 429) {
      const retry = Number.parseInt(headers["x-rate-limit-retry"] ?? "", 10);
      const when = Number.isFinite(retry) ? ` (until ${new Date(retry * 1000).toISOString()})` : "";
      throw new BudgetExhausted(`the target answered 429: its rate limit is used up${when}`);
    }
  }
}
