import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { abArgs, runVariants, writeReport } from "./ab.js";
import { CATEGORIES, type CpuProfile, type ProfileSummary, summarise } from "./profile-summary.js";
import { buildThisTree, ROOT } from "./targets.js";
import { workloads } from "./workloads.js";

/**
 * `npm run bench:profile`: where the CPU time of each operation goes. The server is built and started as
 * `npm run bench` starts it (`node dist/main.js`, defaults, logging at info), once per operation, with a CPU
 * profiler inside (bench/cpu-profile.mjs); one measurement of the operation under load (bench/ab.ts, warm-up
 * included), then the profile is summarised (bench/profile-summary.ts): the share of the request path's samples
 * per category, and the functions of ours that took the most. The profiler itself costs CPU (every 250 us), so
 * read the shares, not the CPU per request it prints. `--only` picks operations, `--duration` the load's length;
 * the .cpuprofile files are kept with `--keep <folder>` (open them in Chrome DevTools); `--script` serves another
 * build (an earlier version's `dist/main.js`, built elsewhere) to see what changed between the two.
 */
const { settings, values } = abArgs(
  {
    keep: ["", "a folder to keep the .cpuprofile files in (open them in Chrome DevTools)"],
    script: ["dist/main.js", "the build to serve: another version's dist/main.js, built elsewhere"],
  },
  "npm run bench:profile: where each operation's CPU time goes, from a CPU profile under its load.",
);

async function main(): Promise<void> {
  const started = performance.now();
  buildThisTree();
  const keep = String(values.keep);
  const dir = keep === "" ? mkdtempSync(join(tmpdir(), "loyalty-mock-profile-")) : keep;
  mkdirSync(dir, { recursive: true });
  const preload = pathToFileURL(join(ROOT, "bench", "cpu-profile.mjs")).href;
  const names = workloads({ tierStructures: 1, incentives: 1 })
    .map((workload) => workload.name)
    .filter((name) => settings.only.length === 0 || settings.only.includes(name));
  const summaries: Record<string, ProfileSummary> = {};
  try {
    for (const name of names) {
      const file = join(dir, `${name.replace(/\W+/g, "-")}.cpuprofile`);
      await runVariants(
        [
          {
            name: "profiled",
            script: String(values.script),
            env: { NODE_OPTIONS: `--import ${preload}`, CPU_PROFILE_OUT: file },
          },
        ],
        { ...settings, rounds: 1, only: [name] },
      );
      summaries[name] = summarise(JSON.parse(readFileSync(file, "utf8")) as CpuProfile);
    }
  } finally {
    if (keep === "") rmSync(dir, { recursive: true, force: true });
  }
  printSummaries(summaries);
  writeReport("profile", { settings, summaries }, started);
}

function printSummaries(summaries: Record<string, ProfileSummary>): void {
  const names = Object.keys(summaries);
  const row = (cells: string[]) => `| ${cells.join(" | ")} |\n`;
  process.stdout.write(`\n${row(["Share of the request path's CPU samples", ...names])}`);
  process.stdout.write(row(["---", ...names.map(() => "---:")]));
  for (const [category] of CATEGORIES)
    process.stdout.write(
      row([category, ...names.map((name) => `${summaries[name]?.categories[category]}%`)]),
    );
  for (const name of names) {
    process.stdout.write(`\n${name}, the functions of ours that took the most (their callees included):\n`);
    for (const { name: fn, percent } of summaries[name]?.top ?? [])
      process.stdout.write(`  ${percent.toFixed(1).padStart(5)}%  ${fn}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:profile failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
