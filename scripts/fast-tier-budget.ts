import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The fast tier's CPU budget, checked by .ci/run on the JSON report of `npm test` (`npx tsx
 * scripts/fast-tier-budget.ts REPORT`). Each test's meta holds the CPU its worker spent on it
 * (test/cpu-time-setup.ts); past the budget the check fails, naming the files that cost most, so that a slow
 * test is moved to the slow tier or made cheaper before `npm test` stops being fast (issue 47). CPU, not time: the
 * machines CI shares are loaded by other work, which stretches every test's time but hardly its CPU. The summed
 * time is printed beside it, for the record.
 */

/**
 * Seconds of CPU the fast tier's tests may spend. Issue 47 measured 49-51 s with the contract (CI's run) on the
 * 2-core VM at load averages of 4 to 8, about 46 s at 3; the budget leaves a fifth more for growth and for what a
 * loaded machine adds.
 */
export const FAST_TIER_CPU_BUDGET_S = 60;

/** The part of vitest's JSON report the check reads. */
export interface JsonReport {
  testResults: {
    name: string;
    assertionResults: { status: string; duration?: number | null; meta?: { cpuMs?: number } }[];
  }[];
}

export interface Summary {
  tests: number;
  /** Tests whose meta holds their CPU time; a test that was skipped has none. */
  measured: number;
  cpuSeconds: number;
  durationSeconds: number;
  /** The files that spent most CPU, most first. */
  heaviest: { file: string; cpuSeconds: number }[];
}

export function summarize(report: JsonReport, root = process.cwd()): Summary {
  let tests = 0;
  let measured = 0;
  let cpuMs = 0;
  let durationMs = 0;
  const byFile: { file: string; cpuSeconds: number }[] = [];
  for (const file of report.testResults) {
    let fileMs = 0;
    for (const test of file.assertionResults) {
      tests++;
      durationMs += test.duration ?? 0;
      const spent = test.meta?.cpuMs;
      if (spent === undefined) continue;
      measured++;
      fileMs += spent;
    }
    cpuMs += fileMs;
    byFile.push({ file: file.name.replace(`${root}/`, ""), cpuSeconds: fileMs / 1000 });
  }
  byFile.sort((a, b) => b.cpuSeconds - a.cpuSeconds);
  return {
    tests,
    measured,
    cpuSeconds: cpuMs / 1000,
    durationSeconds: durationMs / 1000,
    heaviest: byFile.slice(0, 5),
  };
}

/** The check's lines and whether it passed. */
export function checkBudget(
  summary: Summary,
  budgetSeconds = FAST_TIER_CPU_BUDGET_S,
): { ok: boolean; lines: string[] } {
  const s = (seconds: number) => `${seconds.toFixed(1)} s`;
  if (summary.measured === 0)
    return {
      ok: false,
      lines: [
        `fast tier budget: none of the ${summary.tests} tests carries its CPU time; is test/cpu-time-setup.ts among the config's setupFiles?`,
      ],
    };
  const ok = summary.cpuSeconds <= budgetSeconds;
  const lines = [
    `fast tier budget: ${summary.measured} tests spent ${s(summary.cpuSeconds)} of CPU (budget ${s(budgetSeconds)}), ${s(summary.durationSeconds)} of summed test time`,
  ];
  if (!ok)
    lines.push(
      "fast tier budget: over; make the costliest tests cheaper, or move what spawns processes or runs for seconds by design to test/slow/ (CONTRIBUTING.md, The test tiers):",
      ...summary.heaviest.map(({ file, cpuSeconds }) => `  ${s(cpuSeconds)}  ${file}`),
    );
  return { ok, lines };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: tsx scripts/fast-tier-budget.ts <vitest JSON report>");
    process.exit(2);
  }
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(file, "utf8")) as JsonReport;
  } catch (error) {
    console.error(`fast tier budget: no report to read (${(error as Error).message})`);
    process.exit(1);
  }
  const { ok, lines } = checkBudget(summarize(report));
  for (const line of lines) (ok ? console.log : console.error)(line);
  process.exit(ok ? 0 : 1);
}
