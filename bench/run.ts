import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { control, measureTarget, ok, poolSizes, token } from "./client.js";
import { BENCH_KEYS, BENCH_LOCATION, LOCATION, writeBenchFixtures } from "./fixtures.js";
import { type Measurement, measure, median } from "./measure.js";
import { checkTargets, LOCATION_OPERATION, printReport, type Row } from "./report.js";
import { runScale, type ScaleResult } from "./scale.js";
import { BENCH_SETTINGS, buildThisTree, ROOT, serverSettings, startProcess } from "./targets.js";
import { workloads } from "./workloads.js";

/**
 * `npm run bench`: our server against the limits of what it is built on, measured in the same run on the same
 * machine with the same payloads: a bare node:http server (the platform), a bare Express 5 app with Express's
 * defaults (the design, as the targets define it), and the same Express app served as ours is, its requests built
 * with the app's prototypes ("express+", the design's real limit). Rounds are interleaved so that a noisy moment
 * hurts every target alike, and medians are reported.
 */
const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    "scale-cards": { type: "string", default: "1000000" },
    "skip-scale": { type: "boolean", default: false },
  },
});
const rounds = Number(args.rounds);
const duration = Number(args.duration);
const connections = Number(args.connections);

const SIZES = poolSizes(duration);
const LOCATION_PATH = `/v1/locations/${BENCH_LOCATION}`;

async function main(): Promise<void> {
  const started = performance.now();
  buildThisTree();
  const tmp = mkdtempSync(join(tmpdir(), "loyalty-mock-bench-"));
  const fixtures = writeBenchFixtures(join(tmp, "fixtures"), SIZES);
  const body = JSON.stringify(LOCATION);

  const bareHttp = await startProcess({
    script: "bench/servers/bare-http.mjs",
    env: { BENCH_BODY: body },
    probe: (url) => ok(`${url}${LOCATION_PATH}`),
  });
  const bareExpress = await startProcess({
    script: "bench/servers/bare-express.mjs",
    env: { BENCH_BODY: body },
    probe: (url) => ok(`${url}${LOCATION_PATH}`),
  });
  const expressPrototypes = await startProcess({
    script: "bench/servers/express-prototypes.mjs",
    env: { BENCH_BODY: body },
    probe: (url) => ok(`${url}${LOCATION_PATH}`),
  });
  const ours = await startProcess({
    script: "dist/main.js",
    // Default settings but BENCH_SETTINGS: at thousands of requests per second the spec's 1000 live tokens last a
    // third of a second and the 2000 calls a minute a tenth of one, and the workloads measure the operations.
    env: serverSettings({ FIXTURES_DIR: fixtures, ...BENCH_SETTINGS }),
    logFile: join(tmp, "server.log"),
    probe: (url) => ok(`${url}${LOCATION_PATH}`, { headers: BENCH_KEYS }),
  });

  const options = { connections, duration };
  const all = workloads(SIZES);
  const samples = new Map<string, Measurement[]>();
  const add = (key: string, m: Measurement) => {
    process.stderr.write(
      `  ${key.replace("|", ": ")}: ${Math.round(m.rps)} req/s, p99 ${m.p99} ms, ${m.errors} errors, ${m.cpuUs?.toFixed(0) ?? "?"} us CPU/request\n`,
    );
    samples.set(key, [...(samples.get(key) ?? []), m]);
  };
  try {
    // Warm-up: JIT and connection pools, not measured.
    for (const target of [bareHttp, bareExpress, expressPrototypes, ours])
      await measure(target.url, [{ method: "GET", path: LOCATION_PATH, headers: { ...BENCH_KEYS } }], {
        connections,
        duration: 1,
      });
    for (let round = 0; round < rounds; round++) {
      process.stderr.write(`round ${round + 1}/${rounds}\n`);
      const get = [{ method: "GET" as const, path: LOCATION_PATH, headers: { ...BENCH_KEYS } }];
      add(`node:http|${LOCATION_OPERATION}`, await measureTarget(bareHttp, get, options));
      add(`express|${LOCATION_OPERATION}`, await measureTarget(bareExpress, get, options));
      add(`express+|${LOCATION_OPERATION}`, await measureTarget(expressPrototypes, get, options));
      for (const workload of all) {
        const requests = workload.requests({ token: await token(ours) });
        add(`ours|${workload.name}`, await measureTarget(ours, requests, options));
        if (workload.consumes) await control(ours, "POST", "/projects/bench/reset");
      }
    }
  } finally {
    await Promise.all([bareHttp.stop(), bareExpress.stop(), expressPrototypes.stop(), ours.stop()]);
  }

  const rows: Row[] = [...samples.entries()].map(([key, list]) => {
    const [target, workload] = key.split("|") as [string, string];
    return {
      target,
      workload,
      rps: median(list.map((m) => m.rps)),
      p50: median(list.map((m) => m.p50)),
      p99: median(list.map((m) => m.p99)),
      errors: list.reduce((sum, m) => sum + m.errors, 0),
      cpuUs: list.every((m) => m.cpuUs !== undefined)
        ? median(list.map((m) => m.cpuUs as number))
        : undefined,
    };
  });

  let scale: ScaleResult | undefined;
  if (!args["skip-scale"]) scale = await runScale(join(tmp, "scale"), Number(args["scale-cards"]));
  rmSync(tmp, { recursive: true, force: true });

  const checks = checkTargets(rows, scale);
  printReport(rows, scale, checks, { rounds, duration, connections });
  const results = join(ROOT, "bench", "results");
  mkdirSync(results, { recursive: true });
  const file = join(results, `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    settings: { rounds, duration, connections, sizes: SIZES },
    rows,
    scale,
    checks,
    seconds: Math.round((performance.now() - started) / 1000),
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(results, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nwritten ${file} (${report.seconds} s)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
