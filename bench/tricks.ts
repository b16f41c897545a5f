import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SPEED_TRICKS, type SpeedTrick } from "../src/http/fast/index.js";
import { control, measureTarget, ok, poolSizes, token } from "./client.js";
import { BENCH_KEYS, BENCH_LOCATION, writeBenchFixtures } from "./fixtures.js";
import { type Measurement, measure, median } from "./measure.js";
import { othersCpu, waitForQuiet } from "./quiet.js";
import { type Scenario, scenarios } from "./scenarios.js";
import { ROOT, type RunningTarget, startProcess } from "./targets.js";

/**
 * `npm run bench:tricks`: what each speed trick (src/http/fast) buys. Our server runs once with every trick and
 * once with each trick switched off, each in a process of its own started the same way (bench/servers/
 * ours-tricks.mjs), and every operation is measured on each, in interleaved rounds whose order turns each round.
 * Reported per operation: requests per second and server CPU time per request (medians of the rounds), and the
 * CPU a request costs with the trick off relative to all on (the median of each round's ratio, so a slower moment
 * of the machine cancels out). CPU per request is the figure to judge by: it hardly moves with what else the
 * machine is doing, which requests per second does.
 */
const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    duration: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    /** Tricks to measure switched off, comma-separated; all by default. */
    off: { type: "string", default: SPEED_TRICKS.join(",") },
    /** A measurement waits until the rest of the machine takes less than this share of a core... */
    quiet: { type: "string", default: "0.1" },
    /** ...for at most this many seconds, and is repeated (up to --retries times) if it took more meanwhile. */
    "max-wait": { type: "string", default: "120" },
    retries: { type: "string", default: "3" },
  },
});
const rounds = Number(args.rounds);
const duration = Number(args.duration);
const connections = Number(args.connections);
const quiet = Number(args.quiet);
const maxWaitMs = Number(args["max-wait"]) * 1000;
const retries = Number(args.retries);
const measured = args.off.split(",").filter((name) => name !== "") as SpeedTrick[];
for (const name of measured)
  if (!SPEED_TRICKS.includes(name))
    throw new Error(`unknown trick ${name}; known: ${SPEED_TRICKS.join(", ")}`);

const SIZES = poolSizes(duration);
const ALL_ON = "all on";
const variants = [ALL_ON, ...measured.map((trick) => `${trick} off`)];

interface Result {
  scenario: string;
  variant: string;
  rps: number;
  cpuUs: number | undefined;
  /** Median over the rounds of this variant's CPU per request divided by all-on's in the same round. */
  cpuVsAllOn: number | undefined;
  errors: number;
  cpuUsRounds: (number | undefined)[];
  /** The share of a core the rest of the machine took during each round's measurement. */
  othersRounds: (number | undefined)[];
}

type Sample = Measurement & { others: number | undefined };

/**
 * One measurement of a scenario on a target, in a quiet moment (bench/quiet.ts): repeated when the rest of the
 * machine took more than `quiet` of a core meanwhile, at most `retries` times. Consumed pools are reset after.
 */
async function measureQuietly(target: RunningTarget, scenario: Scenario): Promise<Sample> {
  for (let attempt = 0; ; attempt++) {
    await waitForQuiet(target.pid, quiet, maxWaitMs);
    const requests = scenario.requests({ token: await token(target) });
    const others = await othersCpu(target.pid);
    const m = await measureTarget(target, requests, { connections, duration });
    const share = await others();
    if (scenario.consumes) await control(target, "POST", "/projects/bench/reset");
    if (share === undefined || share <= quiet * 2 || attempt >= retries) return { ...m, others: share };
    process.stderr.write(
      `    (the rest of the machine took ${share.toFixed(2)} of a core: measured again)\n`,
    );
  }
}

function pad(text: string, width: number): string {
  return text.padEnd(width);
}

function printTable(results: Result[]): void {
  const header = [
    "Scenario",
    "Variant",
    "req/s",
    "CPU us/req",
    "CPU vs all on",
    "errors",
    "CPU us per round",
  ];
  const lines = results.map((r) => [
    r.scenario,
    r.variant,
    String(Math.round(r.rps)),
    r.cpuUs?.toFixed(1) ?? "?",
    r.cpuVsAllOn === undefined
      ? ""
      : `${r.cpuVsAllOn >= 1 ? "+" : ""}${((r.cpuVsAllOn - 1) * 100).toFixed(1)}%`,
    String(r.errors),
    r.cpuUsRounds.map((us) => us?.toFixed(0) ?? "?").join(" "),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] as string).length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => pad(c, widths[i] as number)).join(" | ")} |`;
  process.stdout.write(`${row(header)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|\n`);
  for (const line of lines) process.stdout.write(`${row(line)}\n`);
}

async function main(): Promise<void> {
  const started = performance.now();
  execFileSync("npx", ["tsc", "-b", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
  const tmp = mkdtempSync(join(tmpdir(), "loyalty-mock-tricks-"));
  const fixtures = writeBenchFixtures(join(tmp, "fixtures"), SIZES);
  const locationPath = `/v1/locations/${BENCH_LOCATION}`;
  const targets = new Map<string, RunningTarget>();
  const samples = new Map<string, Sample[]>();
  try {
    for (const [i, variant] of variants.entries()) {
      const off = variant === ALL_ON ? "" : (measured[i - 1] as string);
      targets.set(
        variant,
        await startProcess({
          script: "bench/servers/ours-tricks.mjs",
          // As `npm run bench` runs ours: defaults, logging on (to a file), the token cap raised.
          env: { FIXTURES_DIR: fixtures, TOKEN_LIMIT: "100000000", BENCH_SPEED_TRICKS_OFF: off },
          logFile: join(tmp, `server-${i}.log`),
          probe: (url) => ok(`${url}${locationPath}`, { headers: BENCH_KEYS }),
        }),
      );
    }
    const all = scenarios(SIZES);
    // Warm-up: JIT and connection pools, every operation once, not measured.
    for (const target of targets.values()) {
      for (const scenario of all) {
        const requests = scenario.requests({ token: await token(target) });
        await measure(target.url, requests, { connections, duration: 1 });
        if (scenario.consumes) await control(target, "POST", "/projects/bench/reset");
      }
    }
    for (let round = 0; round < rounds; round++) {
      process.stderr.write(`round ${round + 1}/${rounds}\n`);
      for (const scenario of all) {
        const order = variants.map((_, i) => variants[(i + round) % variants.length] as string);
        for (const variant of order) {
          const target = targets.get(variant) as RunningTarget;
          const m = await measureQuietly(target, scenario);
          process.stderr.write(
            `  ${scenario.name}, ${variant}: ${Math.round(m.rps)} req/s, ${m.errors} errors, ${m.cpuUs?.toFixed(0) ?? "?"} us CPU/request, others ${m.others?.toFixed(2) ?? "?"} of a core\n`,
          );
          const key = `${scenario.name}|${variant}`;
          samples.set(key, [...(samples.get(key) ?? []), m]);
        }
      }
    }
  } finally {
    await Promise.all([...targets.values()].map((target) => target.stop()));
    rmSync(tmp, { recursive: true, force: true });
  }

  const results: Result[] = [];
  for (const scenario of scenarios(SIZES)) {
    const base = samples.get(`${scenario.name}|${ALL_ON}`) ?? [];
    for (const variant of variants) {
      const list = samples.get(`${scenario.name}|${variant}`) ?? [];
      const cpu = list.map((m) => m.cpuUs);
      const ratios = list.map((m, i) => {
        const on = base[i]?.cpuUs;
        return m.cpuUs !== undefined && on !== undefined ? m.cpuUs / on : undefined;
      });
      results.push({
        scenario: scenario.name,
        variant,
        rps: median(list.map((m) => m.rps)),
        cpuUs: cpu.every((us) => us !== undefined) ? median(cpu as number[]) : undefined,
        cpuVsAllOn:
          variant === ALL_ON || !ratios.every((r) => r !== undefined)
            ? undefined
            : median(ratios as number[]),
        errors: list.reduce((sum, m) => sum + m.errors, 0),
        cpuUsRounds: cpu,
        othersRounds: list.map((m) => m.others),
      });
    }
  }
  process.stdout.write(
    `\nSpeed tricks, ${rounds} rounds of ${duration} s, ${connections} connections (medians of the rounds)\n\n`,
  );
  printTable(results);
  const failed = results.filter((r) => r.errors > 0);
  if (failed.length > 0)
    process.stdout.write(`\nerrors in: ${failed.map((r) => `${r.scenario} (${r.variant})`).join(", ")}\n`);
  const dir = join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `tricks-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  const seconds = Math.round((performance.now() - started) / 1000);
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    settings: { rounds, duration, connections, quiet, sizes: SIZES },
    results,
    seconds,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nwritten ${file} (${seconds} s)\n`);
  if (failed.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:tricks failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
