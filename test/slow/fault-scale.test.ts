import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faultInputSchema } from "../../src/http/control/fault-input.js";
import { ManualClock } from "../../src/platform/clock.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * Fault matching does not slow every request with the number of rules (issue 18: 100k rules, 54 req/s). The same
 * requests are timed on the same server before and after the project gets 100k exact rules and 100 pattern rules
 * for other paths; the rate after must stay a good part of the rate before.
 */

const RULES = 100_000;
const REQUESTS = 2000;

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    documents: defaultDocuments(),
    clock: new ManualClock(),
    caps: { faultsPerProject: RULES + 100 },
  });
});
afterAll(() => server.close());

async function rate(): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        {
          agent,
          host: "127.0.0.1",
          port: server.port,
          path: "/v1/locations/loc_demo_circle",
          headers: { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" },
        },
        (res) => {
          res.resume();
          res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`${res.statusCode}`))));
        },
      );
      req.on("error", reject);
      req.end();
    });
  for (let i = 0; i < 200; i++) await get();
  const started = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) await get();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return REQUESTS / seconds;
}

describe("fault matching with 100k rules", () => {
  it("serves a project with 100k rules (none matching) at a good part of the rate without them", async () => {
    const before = await rate();
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
    const after = await rate();
    process.stdout.write(
      `faults: ${before.toFixed(0)} req/s without rules, ${after.toFixed(0)} req/s with ${RULES} exact and 100 pattern rules (${(after / before).toFixed(2)})\n`,
    );
    expect(after / before).toBeGreaterThan(0.5);
  }, 120_000);
});
