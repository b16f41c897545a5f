import { Agent, request } from "node:http";
import { join } from "node:path";
import { ok } from "./client.js";
import {
  BENCH_CAMPAIGN,
  BENCH_KEYS,
  BENCH_LOCATION,
  DEMO_CAMPAIGN,
  DEMO_KEYS,
  DEMO_LOCATION,
  SMALL_CAMPAIGN,
  writeBenchFixtures,
  writeDefaultsWithCards,
} from "./fixtures.js";
import { median } from "./measure.js";
import { BENCH_SETTINGS, ROOT, residentMiB, serverSettings, startProcess } from "./targets.js";

export interface ScaleResult {
  cards: number;
  /** Process start to first successful request, with `cards` cards in one campaign. */
  readyMs: number;
  rssMiB: number | undefined;
  /** Median assignment latency (ms) in a 1,000-card campaign and in the big one, same process, interleaved. */
  p50SmallMs: number;
  p50LargeMs: number;
  ratio: number;
  /** Process start to first successful request with the embedded default fixtures (median of three starts). */
  defaultReadyMs: number;
  /** The default fixtures with `cards` more cards in the demo's loyalty campaign: start to first request, and RSS. */
  folder: { readyMs: number; rssMiB: number | undefined };
}

const ASSIGNMENTS = 900;

/** One request on a kept-alive connection, timed from send to the last byte, in milliseconds. */
function timedPost(
  agent: Agent,
  url: URL,
  path: string,
  body: string,
  keys: Record<string, string> = BENCH_KEYS,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: "POST",
        path,
        headers: {
          ...keys,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`assignment answered ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - started) / 1e6);
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * The million-card run: start-up time and memory with `cards` cards in one campaign, and card assignment in that
 * campaign against a 1,000-card campaign of the same process, one request at a time, alternating, so the only
 * difference between the two series is the size of the campaign.
 */
export async function runScale(dir: string, cards: number): Promise<ScaleResult> {
  process.stderr.write(`scale: writing ${cards} cards\n`);
  writeBenchFixtures(dir, { cards, smallCards: 1000, tierStructures: 1, incentives: 1 });
  const server = await startProcess({
    script: "dist/main.js",
    // The limits raised, as `npm run bench` raises them: the run sends thousands of calls a minute to one project.
    env: serverSettings({ FIXTURES_DIR: dir, ...BENCH_SETTINGS }),
    logFile: join(dir, "server.log"),
    probe: (url) => ok(`${url}/v1/locations/${BENCH_LOCATION}`, { headers: BENCH_KEYS }),
    timeoutMs: 180_000,
  });
  const small: number[] = [];
  const large: number[] = [];
  let rssMiB: number | undefined;
  try {
    rssMiB = await residentMiB(server.pid);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(server.url);
    const join = (campaign: string, who: string) =>
      timedPost(
        agent,
        url,
        `/v1/loyalties/${campaign}/members`,
        JSON.stringify({ customer: { source_id: who } }),
      );
    for (let i = 0; i < 200; i++) await join(BENCH_CAMPAIGN, `warm-${i}`);
    for (let i = 0; i < ASSIGNMENTS; i++) {
      small.push(await join(SMALL_CAMPAIGN, `small-${i}`));
      large.push(await join(BENCH_CAMPAIGN, `large-${i}`));
    }
    agent.destroy();
    rssMiB = Math.max(rssMiB ?? 0, (await residentMiB(server.pid)) ?? 0) || undefined;
  } finally {
    await server.stop();
  }
  const defaults: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = await startProcess({
      script: "dist/main.js",
      env: serverSettings({ LOG_LEVEL: "info" }),
      probe: (url) =>
        ok(`${url}/v1/locations/loc_demo_circle`, {
          headers: { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" },
        }),
    });
    defaults.push(started.readyMs);
    await started.stop();
  }
  const folder = await runFolder(join(dir, "folder"), cards);
  const p50SmallMs = median(small);
  const p50LargeMs = median(large);
  return {
    cards,
    readyMs: Math.round(server.readyMs),
    rssMiB: rssMiB === undefined ? undefined : Math.round(rssMiB),
    p50SmallMs: Number(p50SmallMs.toFixed(3)),
    p50LargeMs: Number(p50LargeMs.toFixed(3)),
    ratio: Number((p50LargeMs / p50SmallMs).toFixed(2)),
    defaultReadyMs: Math.round(median(defaults)),
    folder,
  };
}

/**
 * The same cards from a fixtures folder as a user writes one: the default fixtures, their demo loyalty campaign
 * holding `cards` more cards after its own. Start-up time, and memory once 1,000 cards are assigned (issue 36).
 */
async function runFolder(dir: string, cards: number): Promise<ScaleResult["folder"]> {
  process.stderr.write(`scale: writing the default fixtures with ${cards} more cards\n`);
  writeDefaultsWithCards(dir, join(ROOT, "fixtures"), cards);
  const server = await startProcess({
    script: "dist/main.js",
    env: serverSettings({ FIXTURES_DIR: dir, ...BENCH_SETTINGS }),
    logFile: join(dir, "server.log"),
    probe: (url) => ok(`${url}/v1/locations/${DEMO_LOCATION}`, { headers: DEMO_KEYS }),
    timeoutMs: 180_000,
  });
  let rssMiB: number | undefined;
  try {
    rssMiB = await residentMiB(server.pid);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(server.url);
    for (let i = 0; i < ASSIGNMENTS + 100; i++)
      await timedPost(
        agent,
        url,
        `/v1/loyalties/${DEMO_CAMPAIGN}/members`,
        JSON.stringify({ customer: { source_id: `folder-${i}` } }),
        DEMO_KEYS,
      );
    agent.destroy();
    rssMiB = Math.max(rssMiB ?? 0, (await residentMiB(server.pid)) ?? 0) || undefined;
  } finally {
    await server.stop();
  }
  return {
    readyMs: Math.round(server.readyMs),
    rssMiB: rssMiB === undefined ? undefined : Math.round(rssMiB),
  };
}
