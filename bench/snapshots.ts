import { mkdtempSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ok, timedRequest } from "./client.js";
import { BENCH_CAMPAIGN, BENCH_KEYS, BENCH_LOCATION, writeBenchFixtures } from "./fixtures.js";
import {
  askLoopDelay,
  BENCH_SETTINGS,
  cpuTimeMs,
  ROOT,
  residentMiB,
  serverSettings,
  startProcess,
} from "./targets.js";

/**
 * Snapshots at the core's scale (issue 44): a project of CARDS cards (a million by default, from the bench's
 * generator), SNAPSHOTS named snapshots saved with CHANGES card assignments between each, while a GET location
 * loop runs throughout on a connection of its own. It reports, per save: its time, the server's CPU for it, and
 * resident memory after it; and the p99 of the GET loop while saves run against the same loop's p99 before any
 * save (the baseline, measured in the same run). Then RESTORES restores of the first snapshot (3), beside a GET loop
 * of their own: each one's time, the loop's p99 and slowest answer, and the server's longest event-loop delay and
 * collection pause meanwhile (bench/loop-delay.mjs). BENCH_STATE_FILE=1 runs it with a state file.
 *
 * What changed between saves is measured in the same run: BASELINE_ROUNDS rounds of CHANGES assignments with no
 * save, before the first, and their mean growth of resident memory is what a round adds without a snapshot.
 *
 * Targets: each snapshot adds at most 5% of the project's resident size plus what changed since the last one;
 * the GET p99 stays under 50 ms while snapshots are saved, and while one is restored. `npm run bench:snapshots`; CARDS=200000 for a quick run.
 */

const CARDS = Number(process.env.CARDS ?? 1_000_000);
const SNAPSHOTS = Number(process.env.SNAPSHOTS ?? 20);
const CHANGES = Number(process.env.CHANGES ?? 1000);
const BASELINE_ROUNDS = Number(process.env.BASELINE_ROUNDS ?? 5);
const RESTORES = Number(process.env.RESTORES ?? 3);

interface Timed {
  start: number;
  end: number;
}

const send = (agent: Agent, url: URL, method: string, path: string, body?: unknown) =>
  timedRequest(agent, url, method, path, body, BENCH_KEYS);

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN;
}

/** GETs one after another until stopped: every request's start and end. */
function getLoop(url: URL): { stop(): Promise<Timed[]> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const done: Timed[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const timed = await send(agent, url, "GET", `/v1/locations/${BENCH_LOCATION}`);
      if (timed.status !== 200) throw new Error(`GET location answered ${timed.status}`);
      done.push(timed);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return done;
    },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-bench-snapshots-"));
  process.stderr.write(`snapshots: writing ${CARDS} cards\n`);
  writeBenchFixtures(join(dir, "fixtures"), { cards: CARDS, tierStructures: 1, incentives: 1 });
  const loopFile = join(dir, "loop-delay.json");
  const server = await startProcess({
    script: "dist/main.js",
    env: {
      ...serverSettings({
        FIXTURES_DIR: join(dir, "fixtures"),
        ...BENCH_SETTINGS,
        ...(process.env.BENCH_STATE_FILE === "1" && { STATE_FILE: join(dir, "state.json") }),
      }),
      NODE_OPTIONS: `--import ${join(ROOT, "bench", "loop-delay.mjs")}`,
      LOOP_DELAY_OUT: loopFile,
    },
    logFile: join(dir, "server.log"),
    probe: (url) => ok(`${url}/v1/locations/${BENCH_LOCATION}`, { headers: BENCH_KEYS }),
    timeoutMs: 300_000,
  });
  const url = new URL(server.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  let joined = 0;
  const assign = async (count: number) => {
    const batch = Array.from({ length: 4 }, async () => {
      while (count-- > 0) {
        const res = await send(agent, url, "POST", `/v1/loyalties/${BENCH_CAMPAIGN}/members`, {
          customer: { source_id: `snap-${joined++}` },
        });
        if (res.status !== 200) throw new Error(`assignment answered ${res.status}`);
      }
    });
    await Promise.all(batch);
  };
  try {
    await assign(CHANGES);
    const readyRss = (await residentMiB(server.pid)) ?? Number.NaN;
    for (let i = 0; i < BASELINE_ROUNDS; i++) await assign(CHANGES);
    const changedMiB = (((await residentMiB(server.pid)) ?? Number.NaN) - readyRss) / BASELINE_ROUNDS;
    const beforeSaves = (await residentMiB(server.pid)) ?? Number.NaN;
    const baselineLoop = getLoop(url);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const baseline = (await baselineLoop.stop()).map((t) => t.end - t.start);

    const saves: { ms: number; cpuMs: number; rssMiB: number; status: number }[] = [];
    const windows: Timed[] = [];
    const loop = getLoop(url);
    for (let i = 0; i < SNAPSHOTS; i++) {
      if (i > 0) await assign(CHANGES);
      const cpuBefore = (await cpuTimeMs(server.pid)) ?? Number.NaN;
      const saved = await send(agent, url, "POST", "/__mock/projects/bench/snapshots", { name: `s${i + 1}` });
      const cpuAfter = (await cpuTimeMs(server.pid)) ?? Number.NaN;
      windows.push(saved);
      saves.push({
        ms: saved.end - saved.start,
        cpuMs: cpuAfter - cpuBefore,
        rssMiB: (await residentMiB(server.pid)) ?? Number.NaN,
        status: saved.status,
      });
      process.stderr.write(
        `snapshots: s${i + 1} ${saved.status} in ${(saved.end - saved.start).toFixed(1)} ms\n`,
      );
    }
    const loopTimes = await loop.stop();
    // The restores, beside a GET loop of their own: what they hold the operations up (issue 44: 50 ms at most).
    const restores: Timed[] = [];
    const restoreStatuses: number[] = [];
    await askLoopDelay(server.pid, loopFile);
    const restoreLoop = getLoop(url);
    for (let i = 0; i < RESTORES; i++) {
      const restored = await send(agent, url, "POST", "/__mock/projects/bench/snapshots/s1/restore");
      restores.push(restored);
      restoreStatuses.push(restored.status);
      process.stderr.write(
        `snapshots: restore ${restored.status} in ${(restored.end - restored.start).toFixed(0)} ms\n`,
      );
    }
    const restoreLoopTimes = await restoreLoop.stop();
    const restoreDelay = await askLoopDelay(server.pid, loopFile);
    const duringRestores = restoreLoopTimes
      .filter((t) => restores.some((w) => t.end >= w.start && t.start <= w.end))
      .map((t) => t.end - t.start);
    const during = loopTimes
      .filter((t) => windows.some((w) => t.end >= w.start && t.start <= w.end))
      .map((t) => t.end - t.start);
    const growth = saves.map(
      (save, i) => save.rssMiB - (i === 0 ? beforeSaves : (saves[i - 1]?.rssMiB ?? 0)),
    );
    const allowed = readyRss * 0.05 + changedMiB;
    const result = {
      cards: CARDS,
      snapshots: SNAPSHOTS,
      changesBetween: CHANGES,
      stateFile: process.env.BENCH_STATE_FILE === "1",
      readyRssMiB: Math.round(readyRss),
      changesRoundAddedMiB: Number(changedMiB.toFixed(1)),
      saves: saves.map((save, i) => ({
        name: `s${i + 1}`,
        status: save.status,
        ms: Number(save.ms.toFixed(1)),
        cpuMs: Math.round(save.cpuMs),
        rssMiB: Math.round(save.rssMiB),
        addedMiB: Number((growth[i] ?? 0).toFixed(1)),
      })),
      allowedPerSnapshotMiB: Number(allowed.toFixed(1)),
      meanAddedMiB: Number((((saves.at(-1)?.rssMiB ?? beforeSaves) - beforeSaves) / SNAPSHOTS).toFixed(1)),
      getP99: {
        baselineMs: Number(p99(baseline).toFixed(2)),
        duringSavesMs: Number(p99(during).toFixed(2)),
        duringSaves: during.length,
        wholeRunMs: Number(p99(loopTimes.map((t) => t.end - t.start)).toFixed(2)),
      },
      restores: {
        statuses: restoreStatuses,
        ms: restores.map((r) => Number((r.end - r.start).toFixed(1))),
        getP99Ms: Number(p99(duringRestores).toFixed(2)),
        getMaxMs: Number(Math.max(0, ...duringRestores).toFixed(2)),
        gets: duringRestores.length,
        loopMaxMs: restoreDelay.maxMs,
        gcMaxMs: restoreDelay.gcMaxMs,
      },
      loadAverage: loadavg(),
    };
    console.log(JSON.stringify(result, null, 2));
    const meanAdded = Number(result.meanAddedMiB);
    const missed = [
      ...(saves.some((save) => save.status !== 201 && save.status !== 409)
        ? ["a save answered neither 201 nor 409"]
        : []),
      ...(meanAdded > allowed ? [`snapshots added ${meanAdded} MiB each, past ${allowed.toFixed(1)}`] : []),
      ...(result.getP99.duringSavesMs >= 50
        ? [`GET p99 during saves ${result.getP99.duringSavesMs} ms`]
        : []),
      ...(result.restores.getP99Ms >= 50 ? [`GET p99 during restores ${result.restores.getP99Ms} ms`] : []),
    ];
    for (const line of missed) process.stderr.write(`snapshots: target missed: ${line}\n`);
    process.exitCode = missed.length > 0 ? 1 : 0;
  } finally {
    agent.destroy();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
