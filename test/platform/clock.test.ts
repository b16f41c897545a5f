import { describe, expect, it } from "vitest";
import { TOKEN_LIFETIME_SECONDS } from "../../src/domain/auth/token-store.js";
import { projectSettingsSchema } from "../../src/domain/projects/settings.js";
import {
  CLOCK_MAX_MS,
  CLOCK_MIN_MS,
  clockRangeProblem,
  LONGEST_LEAD_MS,
  ManualClock,
  ProjectClock,
} from "../../src/platform/clock.js";

describe("clocks", () => {
  it("a project clock follows its root and moves on its own", () => {
    const root = new ManualClock("2026-11-20T10:00:00.000Z");
    const a = new ProjectClock(root);
    const b = new ProjectClock(root);
    a.advance(90);
    expect(a.iso()).toBe("2026-11-20T10:01:30.000Z");
    expect(b.iso()).toBe("2026-11-20T10:00:00.000Z");
    root.advance(10);
    expect(a.iso()).toBe("2026-11-20T10:01:40.000Z");
    b.set("2030-01-01T00:00:00.000Z");
    expect(b.iso()).toBe("2030-01-01T00:00:00.000Z");
    root.advance(1);
    expect(b.iso()).toBe("2030-01-01T00:00:01.000Z");
  });
});

describe("the clock's range", () => {
  it("leaves a day for what is stored ahead of the clock: a key's longest grace and a token's lifetime", () => {
    expect(new Date(CLOCK_MIN_MS).toISOString()).toBe("0000-01-01T00:00:00.000Z");
    expect(new Date(CLOCK_MAX_MS).toISOString()).toBe("9999-12-30T23:59:59.999Z");
    const graceMax = projectSettingsSchema.shape.token_grace_seconds.unwrap().maxValue ?? Number.NaN;
    expect(LONGEST_LEAD_MS).toBeGreaterThanOrEqual(graceMax * 1000);
    expect(LONGEST_LEAD_MS).toBeGreaterThanOrEqual(TOKEN_LIFETIME_SECONDS * 1000);
    expect(new Date(CLOCK_MAX_MS + LONGEST_LEAD_MS).toISOString()).toBe("9999-12-31T23:59:59.999Z");
  });

  it("a running clock that reaches an end of the range by the passing of time stands still there", () => {
    const root = new ManualClock("2026-01-01T00:00:00.000Z");
    const clock = new ProjectClock(root, CLOCK_MAX_MS - root.now() - 1000);
    expect(clock.iso()).toBe("9999-12-30T23:59:58.999Z");
    root.advance(3600);
    expect(clock.iso()).toBe("9999-12-30T23:59:59.999Z");
    expect(clock.frozenAt).toBe(CLOCK_MAX_MS);
    const early = new ProjectClock(new ManualClock(CLOCK_MIN_MS - 5), 0);
    expect(early.iso()).toBe("0000-01-01T00:00:00.000Z");
  });

  it("names the range and the instant a move would reach", () => {
    expect(clockRangeProblem(CLOCK_MAX_MS)).toBeUndefined();
    expect(clockRangeProblem(CLOCK_MIN_MS)).toBeUndefined();
    expect(clockRangeProblem(CLOCK_MAX_MS + 1)).toBe(
      "A project clock shows instants from 0000-01-01T00:00:00.000Z to 9999-12-30T23:59:59.999Z (what the state file can hold, less a day for what is stored ahead of the clock); this would put it at 9999-12-31T00:00:00.000Z",
    );
    expect(clockRangeProblem(Number.NaN)).toMatch(/this would put it at NaN$/);
  });
});
