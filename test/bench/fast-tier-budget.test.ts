import { describe, expect, it } from "vitest";
import {
  checkBudget,
  FAST_TIER_CPU_BUDGET_S,
  type JsonReport,
  summarize,
} from "../../scripts/fast-tier-budget.js";
import fast from "../../vitest.config.js";

/** CI's check of the fast tier's CPU (.ci/run, after `npm test`): it reads vitest's JSON report, as written there. */

const test = (cpuMs: number | undefined, duration = 10) => ({
  status: cpuMs === undefined ? "skipped" : "passed",
  duration,
  meta: cpuMs === undefined ? {} : { cpuMs },
});

const report: JsonReport = {
  testResults: [
    { name: "/repo/test/a.test.ts", assertionResults: [test(1500, 2000), test(500)] },
    { name: "/repo/test/b.test.ts", assertionResults: [test(3000), test(undefined, 0)] },
  ],
};

describe("the fast tier's CPU budget", () => {
  it("adds up the CPU each test's meta holds, by file, the costliest first", () => {
    expect(summarize(report, "/repo")).toEqual({
      tests: 4,
      measured: 3,
      cpuSeconds: 5,
      durationSeconds: 2.02,
      heaviest: [
        { file: "test/b.test.ts", cpuSeconds: 3 },
        { file: "test/a.test.ts", cpuSeconds: 2 },
      ],
    });
  });

  it("passes within the budget, saying the figures", () => {
    expect(checkBudget(summarize(report, "/repo"), 5)).toEqual({
      ok: true,
      lines: ["fast tier budget: 3 tests spent 5.0 s of CPU (budget 5.0 s), 2.0 s of summed test time"],
    });
  });

  it("fails past it, naming the costliest files and where a slow test goes", () => {
    const { ok, lines } = checkBudget(summarize(report, "/repo"), 4.9);
    expect(ok).toBe(false);
    expect(lines.slice(1)).toEqual([
      expect.stringContaining("move what spawns processes or runs for seconds by design to test/slow/"),
      "  3.0 s  test/b.test.ts",
      "  2.0 s  test/a.test.ts",
    ]);
  });

  it("fails when no test carries its CPU time, rather than passing on nothing", () => {
    const bare: JsonReport = {
      testResults: [{ name: "/repo/t.test.ts", assertionResults: [test(undefined)] }],
    };
    expect(checkBudget(summarize(bare, "/repo"))).toMatchObject({ ok: false });
  });

  it("is fed by the fast tier's config: its setup file puts each test's CPU in the meta", () => {
    expect(fast.test?.setupFiles).toContain("test/cpu-time-setup.ts");
    expect(FAST_TIER_CPU_BUDGET_S).toBeGreaterThan(0);
  });
});
