import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faultInputSchema } from "../../src/http/control/fault-input.js";
import { ManualClock } from "../../src/platform/clock.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * Fault matching does not slow every request with the number of rules (issue 18: 100k rules, 54 req/s). The demo
 * project gets 100k exact rules and 100 pattern rules, none for the path asked; the other project none. The same
 * GET is timed on both, in alternating batches on one server, so load on the machine falls on both alike; the
 * project with the rules must keep a good part of the other's rate.
 */

const RULES = 100_000;
const BATCH = 200;
const ROUNDS = 10;

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    documents: defaultDocuments(),
    clock: new ManualClock(),
    caps: { faultsPerProject: RULES + 100 },
    // 2,200 calls a project in a few seconds: past the default 2000 a minute, which would answer 429.
    rateLimitPerMinute: 1_000_000_000,
  });
});
afterAll(() => server.close());

const DEMO = {
  path: "/v1/locations/loc_demo_circle",
  keys: { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" },
};
const OTHER = {
  path: "/v1/locations/loc_other_circle",
  keys: { "X-App-Id": "other-app-id", "X-App-Token": "other-app-token" },
};

/** Seconds `BATCH` sequential GETs take on one kept-alive connection. */
async function batch(agent: Agent, target: typeof DEMO): Promise<number> {
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        { agent, host: "127.0.0.1", port: server.port, path: target.path, headers: target.keys },
        (res) => {
          res.resume();
          res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`${res.statusCode}`))));
        },
      );
      req.on("error", reject);
      req.end();
    });
  const started = process.hrtime.bigint();
  for (let i = 0; i < BATCH; i++) await get();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

describe("fault matching with 100k rules", () => {
  it("serves a project with 100k rules (none matching) at a good part of the rate of one without", async () => {
    const faults = server.registry.get("demo").faults;
    const limit = RULES + 100;
    for (let i = 0; i < RULES; i++) {
      const method = i % 2 === 0 ? "GET" : "*";
      faults.add(
        faultInputSchema.parse({ method, path: `/v1/locations/loc_${i}`, action: "drop" }),
        "t",
        limit,
      );
    }
    for (let i = 0; i < 100; i++)
      faults.add(faultInputSchema.parse({ path: `/v2/area_${i}/**`, action: "drop" }), "t", limit);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await batch(agent, DEMO);
    await batch(agent, OTHER);
    let withRules = 0;
    let without = 0;
    for (let round = 0; round < ROUNDS; round++) {
      withRules += await batch(agent, DEMO);
      without += await batch(agent, OTHER);
    }
    agent.destroy();
    const ratio = without / withRules;
    const rate = (seconds: number) => ((BATCH * ROUNDS) / seconds).toFixed(0);
    process.stdout.write(
      `faults: ${rate(without)} req/s for a project without rules, ${rate(withRules)} req/s for one with ${RULES} ` +
        `exact and 100 pattern rules (${ratio.toFixed(2)})\n`,
    );
    expect(ratio).toBeGreaterThan(0.5);
  }, 120_000);
});
