import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { openSync, readFileSync, rmSync } from "node:fs";
import { cpus } from "node:os";
import { freePort, ROOT } from "../test/helpers/process.js";

export { ROOT };

export interface RunningTarget {
  url: string;
  pid: number;
  /** Milliseconds from spawning the process to its first successful answer. */
  readyMs: number;
  stop(): Promise<void>;
}

/**
 * Our server's settings, given by base name, under both spellings: LOYALTY_MOCK_<name>, which 0.5.0 and later read,
 * and the bare name 0.4 read (so bench:compare can start an older baseline the same way). A newer server warns
 * about the bare names on stderr and uses the prefixed ones.
 */
export function serverSettings(settings: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(settings)) {
    env[name] = value;
    env[`LOYALTY_MOCK_${name}`] = value;
  }
  return env;
}

/**
 * What the benchmarks change of our server's defaults: logging at info (to a file, as in real use), and the limits
 * a load test passes in seconds raised, so the workloads measure the operations rather than refusals (the rate
 * limiter still counts every call and sends its headers).
 */
export const BENCH_SETTINGS = {
  LOG_LEVEL: "info",
  TOKEN_LIMIT: "100000000",
  RATE_LIMIT_PER_MINUTE: "1000000000",
  EVENT_LIMIT: "100000000",
  MEMBER_LIMIT: "100000000",
};

let loadGeneratorPinned = false;

/** This process, every thread of it, on every core but the last (the servers'). */
function pinLoadGenerator(): void {
  if (loadGeneratorPinned) return;
  loadGeneratorPinned = true;
  const others = cpus().length === 2 ? "0" : `0-${cpus().length - 2}`;
  execFileSync("taskset", ["-a", "-p", "-c", others, String(process.pid)], { stdio: "ignore" });
}

/** Servers still running: stopped when the benchmark exits, however it exits, so none is left serving. */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** What bench/loop-delay.mjs, loaded into a server, says of the time since it was last asked. */
export interface LoopDelay {
  /** The longest event-loop delay, and its 99th percentile (ms). */
  maxMs: number;
  p99Ms: number;
  /** The longest garbage collection pause (ms), and what it was: `forced` (by the server), or V8's `major`, ... */
  gcMaxMs: number;
  gcMaxKind: string;
}

/**
 * Asks the server `pid` (started with `--import bench/loop-delay.mjs` and LOOP_DELAY_OUT=`file`) for its longest
 * event-loop delay and collection pause since the last call: SIGUSR2, then its answer in `file`, read once written.
 */
export async function askLoopDelay(pid: number, file: string): Promise<LoopDelay> {
  rmSync(file, { force: true });
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 100; i++) {
    try {
      return JSON.parse(readFileSync(file, "utf8")) as LoopDelay;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error("the server did not tell its event-loop delay");
}

let built = false;

/**
 * Builds this tree's `dist/` (`tsc -b`, which does nothing when it is up to date), once per bench process: every
 * bench that serves "this tree" runs `dist/main.js`, which without this was whatever an earlier build left there.
 */
export function buildThisTree(): void {
  if (built) return;
  execFileSync("npx", ["tsc", "-b", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
  built = true;
}

/**
 * Starts a server in a process of its own (the load generator must not share its event loop), its output going to
 * `logFile` so that logging costs what it costs in real use, and waits until `probe` answers 200.
 */
export async function startProcess(options: {
  script: string;
  env: Record<string, string>;
  probe: (url: string) => Promise<boolean>;
  logFile?: string;
  timeoutMs?: number;
}): Promise<RunningTarget> {
  // This tree's server is built first; a baseline's script lies in its own built checkout (baseline.ts).
  if (options.script === "dist/main.js") buildThisTree();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const out = openSync(options.logFile ?? "/dev/null", "w");
  const started = performance.now();
  // BENCH_PIN=1: the server on the last core, this process (the load generator) on the others, so that the two never
  // take turns on one core; a measurement's spread then comes from the server alone (see pinLoadGenerator).
  const pinned = process.env.BENCH_PIN === "1" && cpus().length > 1;
  if (pinned) pinLoadGenerator();
  const command = pinned ? "taskset" : process.execPath;
  const args = pinned
    ? ["-c", String(cpus().length - 1), process.execPath, options.script]
    : [options.script];
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...options.env, ...serverSettings({ PORT: String(port), HOST: "127.0.0.1" }) },
    stdio: ["ignore", out, "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  running.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      running.delete(child);
      resolve();
    }),
  );
  const deadline = started + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${options.script} exited early: ${stderr}`);
    if (performance.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${options.script} did not answer within ${options.timeoutMs} ms: ${stderr}`);
    }
    if (await options.probe(url).catch(() => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const readyMs = performance.now() - started;
  return {
    url,
    pid: child.pid as number,
    readyMs,
    stop: async () => {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident memory of a process, from /proc (Linux), in MiB; undefined elsewhere. */
export async function residentMiB(pid: number): Promise<number | undefined> {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => undefined);
  const match = status?.match(/^VmRSS:\s+(\d+) kB/m);
  return match ? Number(match[1]) / 1024 : undefined;
}

/** Clock ticks per second of /proc's CPU times: USER_HZ, 100 on every Linux the benchmark is likely to meet. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time a process has used so far (user and system, all its threads, the garbage collector's included), from
 * /proc (Linux), in milliseconds; undefined elsewhere. Unlike requests per second it hardly depends on what else the
 * machine is doing, so it says what a request costs even when the run is noisy.
 */
export async function cpuTimeMs(pid: number): Promise<number | undefined> {
  const { readFile } = await import("node:fs/promises");
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  // Fields after the command name (which may hold spaces, hence the last ")"): utime and stime are the 12th and 13th.
  const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
  const user = Number(fields?.[11]);
  const system = Number(fields?.[12]);
  return Number.isFinite(user) && Number.isFinite(system)
    ? ((user + system) * 1000) / TICKS_PER_SECOND
    : undefined;
}
