import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BENCH_EVENT, BENCH_KEYS, writeBenchFixtures } from "../../bench/fixtures.js";
import { memberId, memberSourceId } from "../../bench/members-fixtures.js";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import type { Project } from "../../src/domain/projects/project.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { demoWithEarnings, EARNINGS_NOW } from "../helpers/earnings-project.js";
import { activityReference, overviewReference, storyReference } from "../helpers/views-reference.js";

/**
 * The audience views at the size issue 44 found them failing at, each timed (printed, never asserted: a time is a
 * benchmark's, `npm run bench:views`) and held to a recomputation from every record: 250,000 cards from the
 * bench's generator, 25,000 of them members with an event each, and a journal of 1,000 more events; then the demo
 * project with 150,000 point earnings (0.10.0's overview answered 500 past about 120,000).
 */
const CARDS = 250_000;
const MEMBERS = 25_000;
const JOURNAL = 1000;

let dir: string;
const servers: RunningServer[] = [];
const times: string[] = [];

afterAll(async () => {
  for (const server of servers) await server.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`\nviews at scale (wall time of one call, in process):\n${times.join("\n")}\n`);
});

/** Asks for a view `calls` times: the answer, and the median wall time, printed with `label`. */
async function timed(server: RunningServer, path: string, label: string, calls = 5) {
  const walls: number[] = [];
  let answer: { status: number; body: unknown } = { status: 0, body: undefined };
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const res = await fetch(`${server.url}${path}`);
    answer = { status: res.status, body: await res.json() };
    walls.push(performance.now() - started);
  }
  const median = walls.sort((a, b) => a - b)[Math.floor(walls.length / 2)] as number;
  times.push(`  ${label}: ${median.toFixed(1)} ms (median of ${calls})`);
  expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
  return answer.body;
}

/** What a reference answers, as the JSON the server sends (numbers within 2^53 here). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

describe(`the audience views at ${CARDS.toLocaleString("en")} generated cards`, () => {
  let server: RunningServer;
  let project: Project;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-views-scale-"));
    writeBenchFixtures(dir, { cards: CARDS, tierStructures: 3, incentives: 1, members: MEMBERS });
    // A clock that stands still, so a view and its recomputation see the same moment.
    server = await startServer({
      port: 0,
      documents: loadProjectDocuments(dir),
      freezeClock: "2026-11-29T12:00:00.000Z",
    });
    servers.push(server);
    project = server.registry.get("bench");
    for (let i = 0; i < JOURNAL; i++) {
      const res = await fetch(`${server.url}/v1/events`, {
        method: "POST",
        headers: { ...BENCH_KEYS, "Content-Type": "application/json" },
        body: JSON.stringify({
          event: BENCH_EVENT,
          customer: { source_id: memberSourceId((i * 7919) % MEMBERS) },
          metadata: { plan: "pro" },
        }),
      });
      expect(res.status).toBe(200);
    }
  }, 600_000);

  it("overview: every member, point and tier, as a pass over every card counts them", async () => {
    const body = await timed(server, "/__mock/projects/bench/overview", "overview");
    expect(body).toEqual(asJson(overviewReference(project)));
  }, 120_000);

  it("story: a member's card, progress, balance and timeline", async () => {
    const id = memberId(0);
    const body = await timed(server, `/__mock/projects/bench/customers/${id}/story`, "story");
    expect(body).toEqual(asJson(storyReference(project, id)));
  }, 120_000);

  it("activity?limit=1000: each event's points, as a scan of every event finds them", async () => {
    const body = await timed(server, "/__mock/projects/bench/activity?limit=1000", "activity?limit=1000");
    expect((body as { total: number }).total).toBe(JOURNAL);
    expect(body).toEqual(asJson(activityReference(project, 1000)));
  }, 600_000);
});

describe("the audience views at 150,000 point earnings", () => {
  it("overview, story and activity answer 200 and what a recomputation answers", async () => {
    const server = await startServer({
      port: 0,
      documents: [demoWithEarnings({ members: 1500, earnings: 150_000, heavy: 30_000 })],
      freezeClock: EARNINGS_NOW,
    });
    servers.push(server);
    const project = server.registry.get("demo");
    const overview = await timed(server, "/__mock/projects/demo/overview", "overview at 150,000 earnings");
    expect(overview).toEqual(asJson(overviewReference(project)));
    // Member 0's card holds 30,000 of them: its story lists each, as its timeline always has.
    const story = await timed(
      server,
      "/__mock/projects/demo/customers/cust_m0/story",
      "story of a card with 30,000 earnings",
      3,
    );
    expect(story).toEqual(asJson(storyReference(project, "cust_m0")));
    const other = await timed(
      server,
      "/__mock/projects/demo/customers/cust_m7/story",
      "story of a card with 80 earnings",
    );
    expect(other).toEqual(asJson(storyReference(project, "cust_m7")));
    const activity = await timed(
      server,
      "/__mock/projects/demo/activity?limit=1000",
      "activity at 150,000 earnings",
    );
    expect(activity).toEqual(asJson(activityReference(project, 1000)));
  }, 600_000);
});
