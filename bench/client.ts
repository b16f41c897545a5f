import { type Agent, request } from "node:http";
import { BENCH_KEYS } from "./fixtures.js";
import { type Measurement, measure } from "./measure.js";
import { cpuTimeMs, type RunningTarget } from "./targets.js";

/**
 * The pools a round uses up (cards to assign, tier slots to fill, incentives to delete), sized from the round's
 * length at POOL_RATE requests per second: about twice the fastest operation measured on the machine the targets
 * were set on (DELETE incentive, 23,000 a second in 0.3.2), so a faster machine still never runs dry (a dry pool
 * would show as errors, and the report checks for none). Sized rather than huge: the live heap is part of what
 * every request pays for (README "Performance"). What a million cards do to the server is the scale run's
 * question, measured there.
 */
const POOL_RATE = 50_000;

export function poolSizes(durationSeconds: number): {
  cards: number;
  tierStructures: number;
  incentives: number;
} {
  const poolSize = Math.ceil(POOL_RATE * durationSeconds);
  // A tier structure holds ten tiers (the workload fills each one slot by slot).
  return { cards: poolSize, tierStructures: Math.ceil(poolSize / 10), incentives: poolSize };
}

/** One measurement of `target`, with the CPU time its process spent on it, per request. */
export async function measureTarget(
  target: RunningTarget,
  requests: Parameters<typeof measure>[1],
  options: Parameters<typeof measure>[2],
): Promise<Measurement> {
  const before = await cpuTimeMs(target.pid);
  const m = await measure(target.url, requests, options);
  const after = await cpuTimeMs(target.pid);
  const cpuUs =
    before !== undefined && after !== undefined && m.requests > 0
      ? ((after - before) * 1000) / m.requests
      : undefined;
  return { ...m, cpuUs };
}

export async function ok(url: string, init?: RequestInit): Promise<boolean> {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return response.ok;
}

export async function control(
  target: RunningTarget,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${target.url}/__mock${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} /__mock${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

export async function token(target: RunningTarget): Promise<string> {
  const response = await fetch(`${target.url}/v1/oauth/token`, {
    method: "POST",
    headers: { ...BENCH_KEYS, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&scope=api",
  });
  const json = (await response.json()) as { access_token: string };
  return json.access_token;
}

/** One request on `agent`, read to its last byte: its status, its size, and when it was sent and fully answered. */
export function timedRequest(
  agent: Agent,
  url: URL,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: number; start: number; end: number }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          ...headers,
          ...(text !== undefined && {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(text),
          }),
        },
      },
      (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, start, end: performance.now() }));
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}
