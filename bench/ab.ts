import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { control, measureTarget, ok, poolSizes, token } from "./client.js";
import { BENCH_KEYS, BENCH_LOCATION, writeBenchFixtures } from "./fixtures.js";
import { type Measurement, measure, median } from "./measure.js";
import { othersCpu, waitForQuiet } from "./quiet.js";
import { BENCH_SETTINGS, ROOT, type RunningTarget, serverSettings, startProcess } from "./targets.js";
import { type Workload, workloadNamed, workloads } from "./workloads.js";

/**
 * Paired A/B runs of our server: the same operations measured on several builds or configurations of it (the
 * variants), each in a process of its own started the same way, in interleaved rounds whose order turns each
 * round, every measurement taken in a quiet moment of the machine. Reported per operation: requests per second and
 * server CPU time per request (medians of the rounds), and each variant's CPU per request relative to the first
 * variant's, as the median of each round's ratio, so that a slower moment of the machine cancels out. CPU per
 * request is the figure to judge by: it hardly moves with what else the machine is doing, which requests per second
 * does. `npm run bench:tricks` (bench/tricks.ts) and `npm run bench:compare` (bench/compare.ts) are built on it.
 */

export interface Variant {
  name: string;
  /** The server's entry, a path from the repository root or absolute. */
  script: string;
  /** Environment besides the benchmark project's folder and the raised token cap. */
  env?: Record<string, string>;
  /**
   * More files for the benchmark project's fixtures (file name to JSON value), such as `webhooks.json`: the variant
   * then serves a copy of the fixtures with them added. A reset between rounds brings them back like the rest.
   */
  fixtures?: Record<string, unknown>;
  /**
   * Something running beside the server for the whole run, such as a browser with the dashboard open: started with
   * the server's URL once it is up, stopped (by what it answers) when the run ends.
   */
  beside?: (url: string) => Promise<() => Promise<void>>;
}

export interface AbSettings {
  rounds: number;
  duration: number;
  connections: number;
  /** A measurement waits until the rest of the machine takes less than this share of a core... */
  quiet: number;
  /** ...for at most this long, and is repeated (up to `retries` times) if it took more meanwhile. */
  maxWaitMs: number;
  retries: number;
  /** Workload names to run; empty: all. */
  only: string[];
}

/** The options every A/B run takes: default and what each does, for `--help`. */
const COMMON_OPTIONS: Record<string, [string, string]> = {
  rounds: ["5", "rounds, each measuring every variant once, the order turning each round"],
  duration: ["3", "seconds each measurement lasts"],
  connections: ["50", "connections the load generator keeps open"],
  quiet: ["0.1", "a measurement waits until the rest of the machine takes less than this share of a core..."],
  "max-wait": ["120", "...for at most this many seconds"],
  retries: [
    "3",
    "times a measurement is repeated when the rest of the machine took more than --quiet meanwhile",
  ],
  only: [
    "",
    "operations to run, by name, comma-separated (`getLocation,deleteIncentive`; the names before 0.12, `GET location`, too); all by default",
  ],
};

/**
 * The command-line options every A/B run takes, with `extra` ones of its own (string options: their default and
 * what each does). `--help` prints `about` and every option with its default, and exits.
 */
export function abArgs(
  extra: Record<string, [string, string]> = {},
  about = "A paired A/B run of the operations (bench/ab.ts).",
): {
  settings: AbSettings;
  values: Record<string, string>;
} {
  const described = { ...COMMON_OPTIONS, ...extra };
  const { values } = parseArgs({
    options: {
      help: { type: "boolean", default: false },
      ...Object.fromEntries(
        Object.entries(described).map(([name, [fallback]]) => [
          name,
          { type: "string" as const, default: fallback },
        ]),
      ),
    },
  });
  if (values.help) {
    const lines = Object.entries(described).map(
      ([name, [fallback, help]]) =>
        `  --${`${name} <value>`.padEnd(22)} ${help}${fallback ? ` (${fallback})` : ""}`,
    );
    lines.push(`  ${"--help".padEnd(24)} this text`);
    process.stdout.write(`${about}\n\nOptions:\n${lines.join("\n")}\n`);
    process.exit(0);
  }
  const strings = values as unknown as Record<string, string>;
  const settings: AbSettings = {
    rounds: Number(strings.rounds),
    duration: Number(strings.duration),
    connections: Number(strings.connections),
    quiet: Number(strings.quiet),
    maxWaitMs: Number(strings["max-wait"]) * 1000,
    retries: Number(strings.retries),
    only: strings.only ? strings.only.split(",").map((name) => workloadNamed(name.trim())) : [],
  };
  return { settings, values: strings };
}

export interface AbResult {
  workload: string;
  variant: string;
  rps: number;
  cpuUs: number | undefined;
  /** Median over the rounds of this variant's CPU per request divided by the first variant's in the same round. */
  cpuVsFirst: number | undefined;
  errors: number;
  cpuUsRounds: (number | undefined)[];
  /** The share of a core the rest of the machine took during each round's measurement. */
  othersRounds: (number | undefined)[];
}

type Sample = Measurement & { others: number | undefined };

/**
 * One measurement of a workload on a target, in a quiet moment (bench/quiet.ts): repeated when the rest of the
 * machine took more than `quiet` of a core meanwhile, at most `retries` times. Consumed pools are reset after.
 */
async function measureQuietly(target: RunningTarget, workload: Workload, s: AbSettings): Promise<Sample> {
  for (let attempt = 0; ; attempt++) {
    await waitForQuiet(target.pid, s.quiet, s.maxWaitMs);
    const requests = workload.requests({ token: await token(target) });
    const others = await othersCpu(target.pid);
    const m = await measureTarget(target, requests, { connections: s.connections, duration: s.duration });
    const share = await others();
    if (workload.consumes) await control(target, "POST", "/projects/bench/reset");
    if (share === undefined || share <= s.quiet * 2 || attempt >= s.retries) return { ...m, others: share };
    process.stderr.write(
      `    (the rest of the machine took ${share.toFixed(2)} of a core: measured again)\n`,
    );
  }
}

/** A copy of the fixtures folder `from` at `to`, with `files` added to the benchmark project. */
function withFiles(from: string, to: string, files: Record<string, unknown>): string {
  cpSync(from, to, { recursive: true });
  for (const [name, value] of Object.entries(files))
    writeFileSync(join(to, "bench", name), JSON.stringify(value));
  return to;
}

/** Runs the variants (the first is the one the others are compared with) and answers the results. */
export async function runVariants(variants: readonly Variant[], s: AbSettings): Promise<AbResult[]> {
  const sizes = poolSizes(s.duration);
  const tmp = mkdtempSync(join(tmpdir(), "loyalty-mock-ab-"));
  const fixtures = writeBenchFixtures(join(tmp, "fixtures"), sizes);
  const locationPath = `/v1/locations/${BENCH_LOCATION}`;
  const targets = new Map<string, RunningTarget>();
  const besides: (() => Promise<void>)[] = [];
  const samples = new Map<string, Sample[]>();
  const all = workloads(sizes).filter((workload) => s.only.length === 0 || s.only.includes(workload.name));
  if (all.length === 0) throw new Error(`no workload named ${s.only.join(", ")}`);
  try {
    for (const [i, variant] of variants.entries()) {
      const own = variant.fixtures
        ? withFiles(fixtures, join(tmp, `fixtures-${i}`), variant.fixtures)
        : fixtures;
      targets.set(
        variant.name,
        await startProcess({
          script: variant.script,
          // As `npm run bench` runs ours: defaults, logging on (to a file), the token cap raised.
          env: { ...serverSettings({ FIXTURES_DIR: own, ...BENCH_SETTINGS }), ...variant.env },
          logFile: join(tmp, `server-${i}.log`),
          probe: (url) => ok(`${url}${locationPath}`, { headers: BENCH_KEYS }),
        }),
      );
    }
    for (const variant of variants)
      if (variant.beside)
        besides.push(await variant.beside((targets.get(variant.name) as RunningTarget).url));
    // Warm-up: JIT and connection pools, every operation once, not measured.
    for (const target of targets.values()) {
      for (const workload of all) {
        const requests = workload.requests({ token: await token(target) });
        await measure(target.url, requests, { connections: s.connections, duration: 1 });
        if (workload.consumes) await control(target, "POST", "/projects/bench/reset");
      }
    }
    for (let round = 0; round < s.rounds; round++) {
      process.stderr.write(`round ${round + 1}/${s.rounds}\n`);
      for (const workload of all) {
        const order = variants.map((_, i) => variants[(i + round) % variants.length] as Variant);
        for (const variant of order) {
          const target = targets.get(variant.name) as RunningTarget;
          const m = await measureQuietly(target, workload, s);
          process.stderr.write(
            `  ${workload.name}, ${variant.name}: ${Math.round(m.rps)} req/s, ${m.errors} errors, ${m.cpuUs?.toFixed(0) ?? "?"} us CPU/request, others ${m.others?.toFixed(2) ?? "?"} of a core\n`,
          );
          const key = `${workload.name}|${variant.name}`;
          samples.set(key, [...(samples.get(key) ?? []), m]);
        }
      }
    }
  } finally {
    for (const stop of besides) await stop();
    await Promise.all([...targets.values()].map((target) => target.stop()));
    rmSync(tmp, { recursive: true, force: true });
  }

  const first = variants[0]?.name;
  const results: AbResult[] = [];
  for (const workload of all) {
    const base = samples.get(`${workload.name}|${first}`) ?? [];
    for (const variant of variants) {
      const list = samples.get(`${workload.name}|${variant.name}`) ?? [];
      const cpu = list.map((m) => m.cpuUs);
      const ratios = list.map((m, i) => {
        const on = base[i]?.cpuUs;
        return m.cpuUs !== undefined && on !== undefined ? m.cpuUs / on : undefined;
      });
      results.push({
        workload: workload.name,
        variant: variant.name,
        rps: median(list.map((m) => m.rps)),
        cpuUs: cpu.every((us) => us !== undefined) ? median(cpu as number[]) : undefined,
        cpuVsFirst:
          variant.name === first || !ratios.every((r) => r !== undefined)
            ? undefined
            : median(ratios as number[]),
        errors: list.reduce((sum, m) => sum + m.errors, 0),
        cpuUsRounds: cpu,
        othersRounds: list.map((m) => m.others),
      });
    }
  }
  return results;
}

/** A relative change as a signed percentage: 1.043 is "+4.3%". */
export function percent(ratio: number): string {
  return `${ratio >= 1 ? "+" : ""}${((ratio - 1) * 100).toFixed(1)}%`;
}

/** Prints the results as a Markdown table, `vsFirst` naming the ratio's column. */
export function printResults(results: readonly AbResult[], vsFirst: string): void {
  const header = ["Workload", "Variant", "req/s", "CPU us/req", vsFirst, "errors", "CPU us per round"];
  const lines = results.map((r) => [
    r.workload,
    r.variant,
    String(Math.round(r.rps)),
    r.cpuUs?.toFixed(1) ?? "?",
    r.cpuVsFirst === undefined ? "" : percent(r.cpuVsFirst),
    String(r.errors),
    r.cpuUsRounds.map((us) => us?.toFixed(0) ?? "?").join(" "),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] as string).length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
  process.stdout.write(`${row(header)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|\n`);
  for (const line of lines) process.stdout.write(`${row(line)}\n`);
  const failed = results.filter((r) => r.errors > 0);
  if (failed.length > 0) {
    process.stdout.write(`\nerrors in: ${failed.map((r) => `${r.workload} (${r.variant})`).join(", ")}\n`);
    process.exitCode = 1;
  }
}

/** Writes the run to bench/results/<prefix>-<time>.json and says where. */
export function writeReport(prefix: string, report: Record<string, unknown>, started: number): void {
  const dir = join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${prefix}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  const seconds = Math.round((performance.now() - started) / 1000);
  const full = { at: new Date().toISOString(), node: process.version, ...report, seconds };
  writeFileSync(file, `${JSON.stringify(full, null, 2)}\n`);
  process.stdout.write(`\nwritten ${file} (${seconds} s)\n`);
}
