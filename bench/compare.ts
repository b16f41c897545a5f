import { abArgs, percent, printResults, runVariants, writeReport } from "./ab.js";
import { checkoutBaseline } from "./baseline.js";

/**
 * `npm run bench:compare -- --baseline <git ref>`: this working tree against an earlier commit (main by default),
 * both built and served as `npm start` serves them (`node dist/main.js`, defaults, logging at info), in a paired A/B
 * run (bench/ab.ts). The baseline is checked out in a temporary worktree sharing this one's node_modules. Each
 * operation's CPU per request is reported relative to the baseline's; `--max-slower 5` fails the run when any
 * operation costs more than 5% more CPU per request than before.
 */
const { settings, values } = abArgs(
  {
    baseline: ["main", "the git ref to compare this tree with (a commit, a branch, a tag)"],
    "max-slower": ["5", "fail when an operation costs more than this percentage more CPU per request"],
  },
  "npm run bench:compare -- --baseline <ref>: this tree against an earlier commit, CPU per request per operation,\n" +
    "in one paired run; BENCH_PIN=1 gives the server a core of its own (CONTRIBUTING.md, Releasing).",
);
const baseline = String(values.baseline);
const maxSlower = Number(values["max-slower"]);

async function main(): Promise<void> {
  const started = performance.now();
  const { commit, script, cleanUp } = checkoutBaseline(baseline);
  try {
    const results = await runVariants(
      [
        { name: `baseline ${baseline}`, script },
        { name: "this tree", script: "dist/main.js" },
      ],
      settings,
    );
    const { rounds, duration, connections } = settings;
    process.stdout.write(
      `\nThis tree against ${baseline} (${commit.slice(0, 7)}), ${rounds} rounds of ${duration} s, ${connections} connections (medians of the rounds)\n\n`,
    );
    printResults(results, "CPU vs baseline");
    const slower = results.filter((r) => r.cpuVsFirst !== undefined && r.cpuVsFirst > 1 + maxSlower / 100);
    if (slower.length > 0) {
      process.stdout.write(
        `\nmore than ${maxSlower}% more CPU per request: ${slower.map((r) => `${r.workload} ${percent(r.cpuVsFirst as number)}`).join(", ")}\n`,
      );
      process.exitCode = 1;
    } else process.stdout.write(`\nno operation costs more than ${maxSlower}% more CPU per request\n`);
    writeReport("compare", { baseline, commit, settings, results }, started);
  } finally {
    cleanUp();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:compare failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
