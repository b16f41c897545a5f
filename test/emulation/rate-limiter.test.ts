import { describe, expect, it } from "vitest";
import { RateLimiter } from "../../src/emulation/rate-limiter.js";

describe("RateLimiter", () => {
  const rule = { limit: 2, window_seconds: 10 };
  it("opens a window with the first request and refuses past the limit until it ends", () => {
    const limiter = new RateLimiter();
    expect(limiter.take(rule, 1000)).toMatchObject({ allowed: true, remaining: 1, resetAtMs: 11_000 });
    expect(limiter.take(rule, 5000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take(rule, 10_999)).toMatchObject({ allowed: false, remaining: 0, resetAtMs: 11_000 });
    expect(limiter.take(rule, 11_000)).toMatchObject({ allowed: true, remaining: 1, resetAtMs: 21_000 });
  });

  it("a clock moved back before the window opens a new one", () => {
    const limiter = new RateLimiter();
    limiter.take(rule, 50_000);
    limiter.take(rule, 50_000);
    expect(limiter.take(rule, 40_000)).toMatchObject({ allowed: true, remaining: 1 });
  });
});
