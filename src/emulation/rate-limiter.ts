import { z } from "zod";

/**
 * The real service counts a project's API calls per hour or per minute depending on the plan; a project here may
 * have any fixed window. Projects without one get the server's per-minute default (RATE_LIMIT_PER_MINUTE).
 */
export const rateLimitSchema = z.strictObject({
  // As high as RATE_LIMIT_PER_MINUTE goes: load tests send millions of calls a minute to one project.
  limit: z.number().int().min(1).max(1_000_000_000),
  window_seconds: z.number().int().min(1).max(86_400).default(3600),
});

export type RateLimit = z.output<typeof rateLimitSchema>;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends and the count starts again (epoch ms on the project's clock). */
  resetAtMs: number;
}

export interface RateWindow {
  used: number;
  remaining: number;
  resets_at: string;
}

/**
 * A project's API call budget: a fixed window opened by the first request it counts, `limit` requests in it, the
 * rest refused until it ends. Windows run on the project's clock, so a test moves past one instead of waiting.
 */
export class RateLimiter {
  #windowStart: number | null = null;
  #used = 0;

  take(rule: RateLimit, nowMs: number): RateDecision {
    const windowMs = rule.window_seconds * 1000;
    // A clock moved back before the window began opens a new one rather than leaving a window that never ends.
    if (this.#windowStart === null || nowMs >= this.#windowStart + windowMs || nowMs < this.#windowStart) {
      this.#windowStart = nowMs;
      this.#used = 0;
    }
    const resetAtMs = this.#windowStart + windowMs;
    if (this.#used >= rule.limit) return { allowed: false, limit: rule.limit, remaining: 0, resetAtMs };
    this.#used++;
    return { allowed: true, limit: rule.limit, remaining: rule.limit - this.#used, resetAtMs };
  }

  /** The current window as the control API shows it; null when no window is open. */
  window(rule: RateLimit, nowMs: number): RateWindow | null {
    const start = this.#windowStart;
    if (start === null || nowMs < start || nowMs >= start + rule.window_seconds * 1000) return null;
    return {
      used: this.#used,
      remaining: Math.max(0, rule.limit - this.#used),
      resets_at: new Date(start + rule.window_seconds * 1000).toISOString(),
    };
  }

  reset(): void {
    this.#windowStart = null;
    this.#used = 0;
  }
}
