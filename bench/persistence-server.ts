import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { freePort, ROOT } from "../test/helpers/process.js";
import { BENCH_KEYS, BENCH_LOCATION, writeBenchFixtures } from "./fixtures.js";
import { askLoopDelay, buildThisTree, cpuTimeMs, residentMiB, serverSettings } from "./targets.js";

/** The targets on the real server (`node dist/main.js`) with STATE_FILE and STATE_SYNC=always. */
export interface ServerResult {
  cards: number;
  firstStartMs: number;
  writesPerSecond: number;
  writeErrors: number;
  sigtermMs: number;
  sigtermCode: number | null;
  restartMs: number;
  restartCpuMs: number;
  tokensAfterRestart: number;
  tokensAcknowledged: number;
  /** GET location at 10 connections while the restart's background snapshot is written. */
  getP99Ms: number;
  getMaxMs: number;
  /** The longest the server's event loop was held from the restart's first answer to its snapshot's end. */
  loopBlockMaxMs: number;
  /** The machine's one-minute load average at the end: what a wall-clock figure must be read with. */
  loadAverage: number;
  snapshotDone: boolean;
  rssIdleMiB: number;
  rssPeakDuringSnapshotMiB: number;
  exportMiB: number;
  exportMs: number;
  rssPeakDuringExportMiB: number;
  /** Clients that ask for the export and never read it, held open for 10 s (within the write timeout). */
  nonReaders: number;
  rssPeakWithNonReadersMiB: number;
  /** A GET location answered meanwhile, in ms. */
  getWithNonReadersMs: number;
}

const NON_READERS = 100;

/** `count` clients ask for the export and never read a byte; RSS peak over `ms`, then a GET's time. */
async function nonReaders(url: string, pid: number, count: number, ms: number) {
  const { hostname, port } = new URL(url);
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect(Number(port), hostname);
    socket.on("error", () => undefined);
    socket.write(`GET /__mock/projects/bench/state HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
    socket.pause();
    sockets.push(socket);
  }
  const held = await peakRss(pid, new Promise((resolve) => setTimeout(resolve, ms)));
  const started = performance.now();
  const res = await fetch(`${url}/v1/locations/${BENCH_LOCATION}`, { headers: BENCH_KEYS });
  await res.arrayBuffer();
  const getMs = performance.now() - started;
  for (const socket of sockets) socket.destroy();
  return { peak: held.peak, getMs };
}

interface Child {
  child: ChildProcess;
  url: string;
  readyMs: number;
  /** CPU time the process used until ready: what the start costs, whatever else the machine is doing. */
  readyCpuMs: number;
  exited: Promise<number | null>;
}

async function start(env: Record<string, string>, loopDelayFile?: string): Promise<Child> {
  buildThisTree();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "./bench/loop-delay.mjs", "dist/main.js"], {
    cwd: ROOT,
    // The server runs with Node's default heap, as users run it, whatever this process was given.
    env: {
      ...process.env,
      ...serverSettings({ ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" }),
      NODE_OPTIONS: "",
      ...(loopDelayFile && { LOOP_DELAY_OUT: loopDelayFile }),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  for (;;) {
    if (child.exitCode !== null) throw new Error("the server exited during start");
    const ok = await fetch(`${url}/v1/locations/${BENCH_LOCATION}`, { headers: BENCH_KEYS })
      .then(async (res) => {
        await res.arrayBuffer();
        return res.ok;
      })
      .catch(() => false);
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const readyMs = performance.now() - started;
  return { child, url, readyMs, readyCpuMs: (await cpuTimeMs(child.pid as number)) ?? Number.NaN, exited };
}

async function stop(server: Child): Promise<{ ms: number; code: number | null }> {
  const started = performance.now();
  server.child.kill("SIGTERM");
  const code = await server.exited;
  return { ms: performance.now() - started, code };
}

/** Samples the process's resident memory every 100 ms until `until` settles; the peak, in MiB. */
async function peakRss<T>(pid: number, until: Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = 0;
  let done = false;
  const value = Promise.resolve(until).finally(() => {
    done = true;
  });
  while (!done) {
    peak = Math.max(peak, (await residentMiB(pid)) ?? 0);
    await Promise.race([value, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  return { value: await value, peak };
}

function snapshotGen(file: string): number {
  const fd = openSync(file, "r");
  const buffer = Buffer.alloc(200);
  readSync(fd, buffer, 0, 200, 0);
  closeSync(fd);
  const head = buffer.toString("utf8");
  return Number(/"gen":(\d+)/.exec(head)?.[1] ?? 0);
}

/** Reads a whole export through a socket, counting bytes, never keeping them. */
function readExport(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(`${url}/__mock/projects/bench/state`, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on("end", () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${res.statusCode}`))));
    })
      .on("error", reject)
      .end();
  });
}

export async function benchServer(cards: number, seconds: number): Promise<ServerResult> {
  const dir = mkdtempSync(join(tmpdir(), "bench-persist-"));
  const fixtures = writeBenchFixtures(join(dir, "fixtures"), { cards, tierStructures: 1, incentives: 1 });
  const stateFile = join(dir, "state.json");
  const env = {
    FIXTURES_DIR: fixtures,
    STATE_FILE: stateFile,
    STATE_SYNC: "always",
    TOKEN_LIMIT: "100000000",
    // Raised as in every benchmark: at the default 2,000 a minute, a 429 is not a write and must not be counted as one.
    RATE_LIMIT_PER_MINUTE: "1000000000",
  };
  const first = await start(env);
  const writes = await autocannon({
    url: first.url,
    connections: 10,
    duration: seconds,
    requests: [
      {
        method: "POST",
        path: "/v1/oauth/token",
        headers: { ...BENCH_KEYS, "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&scope=api",
      },
    ],
  });
  const sigterm = await stop(first);
  const genBefore = snapshotGen(stateFile);
  const loopFile = join(dir, "loop-delay.json");
  const second = await start(env, loopFile);
  const pid = second.child.pid as number;
  await askLoopDelay(pid, loopFile);
  // The restart replayed a log, so it writes a new snapshot in the background: GETs run across it.
  const during = await peakRss(
    pid,
    autocannon({
      url: second.url,
      connections: 10,
      duration: seconds,
      requests: [{ method: "GET", path: `/v1/locations/${BENCH_LOCATION}`, headers: BENCH_KEYS }],
    }),
  );
  const snapshotDone = snapshotGen(stateFile) > genBefore;
  const loopDuringGets = await askLoopDelay(pid, loopFile);
  for (let waited = 0; snapshotGen(stateFile) <= genBefore && waited < 300; waited++)
    await new Promise((resolve) => setTimeout(resolve, 1000));
  const loopRestOfSnapshot = await askLoopDelay(pid, loopFile);
  const project = (await (await fetch(`${second.url}/__mock/projects/bench`)).json()) as {
    counts?: { tokens?: number };
  };
  const rssIdle = (await residentMiB(pid)) ?? 0;
  const exportStarted = performance.now();
  const exported = await peakRss(pid, readExport(second.url));
  const exportMs = performance.now() - exportStarted;
  const held = await nonReaders(second.url, pid, NON_READERS, 10_000);
  await stop(second);
  rmSync(dir, { recursive: true, force: true });
  return {
    cards,
    firstStartMs: first.readyMs,
    // Acknowledged writes only: a refused request (429, 5xx) is an answer, not a write.
    writesPerSecond: writes["2xx"] / writes.duration,
    writeErrors: writes.errors + writes.non2xx + writes.timeouts,
    sigtermMs: sigterm.ms,
    sigtermCode: sigterm.code,
    restartMs: second.readyMs,
    restartCpuMs: second.readyCpuMs,
    tokensAfterRestart: project.counts?.tokens ?? -1,
    tokensAcknowledged: writes["2xx"],
    getP99Ms: during.value.latency.p99,
    getMaxMs: during.value.latency.max,
    loopBlockMaxMs: Math.max(loopDuringGets.maxMs, loopRestOfSnapshot.maxMs),
    loadAverage: loadavg()[0] ?? 0,
    snapshotDone,
    rssIdleMiB: rssIdle,
    rssPeakDuringSnapshotMiB: during.peak,
    exportMiB: exported.value / 2 ** 20,
    exportMs,
    rssPeakDuringExportMiB: exported.peak,
    nonReaders: NON_READERS,
    rssPeakWithNonReadersMiB: held.peak,
    getWithNonReadersMs: held.getMs,
  };
}
