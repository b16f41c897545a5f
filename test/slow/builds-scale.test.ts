import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BENCH_KEYS, BENCH_LOCATION, writeBenchFixtures } from "../../bench/fixtures.js";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { createApp, createRegistry, type ProjectRegistry } from "../../src/index.js";
import { systemClock } from "../../src/platform/clock.js";
import { type Listening, useServer } from "../helpers/listen.js";

/**
 * The calls that build a project, at 200,000 generated cards (20,000 of them held: members with a publication
 * and an earning event each), while a GET location loop runs on a connection of its own: a reset, a snapshot's
 * restore, a state import and a project created from a template. Each leaves the state it should, and GETs are
 * answered while it builds (a build in one piece would hold them all until it ends). Times and the loop's p99 are
 * reported, not asserted (the server and its clients share this process, and the test's own exports and
 * comparisons hold them all): their targets live in `npm run bench:views`, at a million cards, on a process of
 * its own.
 */

const CARDS = 200_000;
const MEMBERS = 20_000;

let dir: string;
let registry: ProjectRegistry;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-builds-scale-"));
  writeBenchFixtures(join(dir, "fixtures"), {
    cards: CARDS,
    tierStructures: 3,
    incentives: 1,
    members: MEMBERS,
  });
  registry = createRegistry({
    clock: systemClock,
    documents: loadProjectDocuments(join(dir, "fixtures")),
    defaults: { caps: { membersPerProject: 1_000_000, eventsPerProject: 1_000_000 }, rateLimit: null },
  });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  registry = undefined as unknown as ProjectRegistry;
});

const listen = useServer();

/** GETs one after another until stopped: when each was answered. */
function getLoop(server: Listening) {
  const answered: { at: number; ms: number; status: number }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${server.url}/v1/locations/${BENCH_LOCATION}`, { headers: BENCH_KEYS });
      await res.arrayBuffer();
      answered.push({ at: performance.now(), ms: performance.now() - started, status: res.status });
    }
  })();
  return {
    answered,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** A build beside the loop: its answer, and the GETs answered while it ran. */
async function beside(
  server: Listening,
  loop: ReturnType<typeof getLoop>,
  method: string,
  path: string,
  body?: unknown,
) {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  // Until the answer's head: then the client (this process, as the server is) reads it, a state import's whole.
  const ended = performance.now();
  const answer = (await res.json()) as Record<string, unknown>;
  const during = loop.answered.filter((get) => get.at - get.ms > started && get.at < ended);
  const sorted = during.map((get) => get.ms).sort((a, b) => a - b);
  console.log(
    `${method} ${path}: ${res.status} in ${(ended - started).toFixed(0)} ms; ${during.length} GETs answered ` +
      `meanwhile, p99 ${(sorted[Math.floor(sorted.length * 0.99)] ?? 0).toFixed(1)} ms, slowest ${(sorted.at(-1) ?? 0).toFixed(1)} ms`,
  );
  return { status: res.status, body: answer, during: during.length };
}

describe(`the builds of a ${CARDS.toLocaleString("en")}-card project`, () => {
  it("reset, restore, import and a copy each answer GETs while they build, and leave the state they should", async () => {
    const server = await listen(createApp({ registry, stateBodyLimit: 1024 * 1024 * 1024 }));
    // Seconds of JSON are made between two calls here: a connection kept alive must not be closed meanwhile.
    server.server.keepAliveTimeout = 120_000;
    const fixtures = exportProject(registry.get("bench"));
    const fixturesText = JSON.stringify(fixtures);
    const loop = getLoop(server);
    try {
      const join = await fetch(`${server.url}/v1/loyalties/camp_bench_loyalty/members`, {
        method: "POST",
        headers: { ...BENCH_KEYS, "Content-Type": "application/json" },
        body: JSON.stringify({ customer: { source_id: "scale@example.com" } }),
      });
      expect(join.status).toBe(200);
      const saved = await fetch(`${server.url}/__mock/projects/bench/snapshots`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "joined" }),
      });
      expect(saved.status).toBe(201);
      const joined = exportProject(registry.get("bench"));

      const reset = await beside(server, loop, "POST", "/__mock/projects/bench/reset");
      expect(reset.status).toBe(200);
      expect(reset.during).toBeGreaterThan(0);
      expect(exportProject(registry.get("bench"))).toEqual(fixtures);

      const restore = await beside(server, loop, "POST", "/__mock/projects/bench/snapshots/joined/restore");
      expect(restore.status).toBe(200);
      expect(restore.during).toBeGreaterThan(0);
      const { project: _restored, ...restoredRecords } = exportProject(registry.get("bench"));
      const { project: _joined, ...joinedRecords } = joined;
      expect(restoredRecords).toEqual(joinedRecords);

      const put = await beside(server, loop, "PUT", "/__mock/projects/bench/state", fixturesText);
      expect(put.status).toBe(200);
      expect(put.during).toBeGreaterThan(0);
      expect(exportProject(registry.get("bench"))).toEqual(fixtures);

      const copy = await beside(server, loop, "POST", "/__mock/projects", {
        template: "bench",
        project_id: "copy",
      });
      expect(copy.status).toBe(201);
      expect(copy.during).toBeGreaterThan(0);
      expect(registry.get("copy").vouchers.size).toBe(fixtures.vouchers.length);
    } finally {
      await loop.stop();
    }
    expect(new Set(loop.answered.map((get) => get.status))).toEqual(new Set([200]));
  });
});
