import { Agent } from "node:http";
import { timedRequest } from "./client.js";
import { BENCH_KEYS, BENCH_LOCATION } from "./fixtures.js";
import { median } from "./measure.js";
import { askLoopDelay, cpuTimeMs, type RunningTarget } from "./targets.js";

/** How the views bench reads a server: one call at a time on a kept-alive connection, and what it cost. */

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** One request, read to its last byte: its status, its size and its wall time in ms. */
export async function call(
  target: RunningTarget,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: number; ms: number }> {
  const { status, bytes, start, end } = await timedRequest(
    agent,
    new URL(target.url),
    method,
    path,
    body,
    headers,
  );
  return { status, bytes, ms: end - start };
}

/** `count` calls of `make(i)`, `width` at a time: how the bench sends its journal of events. */
export async function pool(
  count: number,
  width: number,
  make: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await make(next++);
    }),
  );
}

export interface ViewCost {
  name: string;
  calls: number;
  /** Server CPU per call (user and system, from /proc, 10 ms ticks summed over the calls). */
  cpuMs: number;
  /** Wall time of a call, the median. */
  wallMs: number;
  bytes: number;
  status: number;
}

/** Server CPU and wall time of `calls` calls in a row, with nothing else sent meanwhile. */
export async function cost(
  target: RunningTarget,
  name: string,
  calls: number,
  path: (i: number) => string,
  method = "GET",
): Promise<ViewCost> {
  const walls: number[] = [];
  let first: { status: number; bytes: number } | undefined;
  const before = (await cpuTimeMs(target.pid)) ?? Number.NaN;
  for (let i = 0; i < calls; i++) {
    const answer = await call(target, method, path(i));
    first ??= answer;
    walls.push(answer.ms);
  }
  const after = (await cpuTimeMs(target.pid)) ?? Number.NaN;
  // The first call's answer: the same call for every build, however many calls each makes.
  const { status = 0, bytes = 0 } = first ?? {};
  return { name, calls, cpuMs: (after - before) / calls, wallMs: median(walls), bytes, status };
}

export interface Blocking {
  name: string;
  /** The slowest GET location answered while the calls ran, how many were answered, and how many failed. */
  getMaxMs: number;
  /** The 99th percentile of those GETs' times. */
  getP99Ms: number;
  gets: number;
  failed: number;
  /** The server's longest event-loop delay meanwhile (bench/loop-delay.mjs, a 10 ms timer). */
  loopMaxMs: number | undefined;
  /** The server's longest garbage collection pause meanwhile (the same file). */
  gcMaxMs: number | undefined;
  /** What that pause was: `forced` (the memory budget's collection), or V8's own `major`, `minor`, ... */
  gcMaxKind: string | undefined;
  /** Each call's wall time and status, in order. */
  calls: { ms: number; status: number }[];
}

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
}

/**
 * What `calls` calls of `path(i)` hold the operations up: a GET location loop runs beside them, one request at a
 * time, and the slowest answer it got is the longest any operation waited behind them.
 */
export async function blocking(
  target: RunningTarget,
  name: string,
  calls: number,
  path: (i: number) => string,
  loopFile: string,
  method = "GET",
): Promise<Blocking> {
  await askLoopDelay(target.pid, loopFile);
  let running = true;
  const gets: number[] = [];
  let failed = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      // A request the server held past its own time limits is reset: counted, with the time it waited.
      await call(target, "GET", `/v1/locations/${BENCH_LOCATION}`, undefined, BENCH_KEYS).then(
        (answer) => gets.push(answer.ms),
        () => {
          failed++;
          gets.push(performance.now() - started);
        },
      );
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const made: { ms: number; status: number }[] = [];
  for (let i = 0; i < calls; i++) {
    const answer = await call(target, method, path(i));
    made.push({ ms: answer.ms, status: answer.status });
  }
  running = false;
  await loop;
  const delay = await askLoopDelay(target.pid, loopFile);
  return {
    name,
    getMaxMs: gets.reduce((a, b) => Math.max(a, b), 0),
    getP99Ms: p99(gets),
    gets: gets.length,
    failed,
    loopMaxMs: delay.maxMs,
    gcMaxMs: delay.gcMaxMs,
    gcMaxKind: delay.gcMaxKind,
    calls: made,
  };
}
