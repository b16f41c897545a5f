import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { soak } from "../../bench/soak-traffic.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { collectGarbage } from "../../src/platform/collect-garbage.js";
import { type RunningServer, startServer } from "../../src/server.js";

/**
 * The short CI version of `npm run soak` (docs/performance.md, "Soak"): a mixed stream of 30 000 requests against
 * a listening server. The journal and the token store stay within their caps, tokens that expired or were reset
 * away are gone from the registry's index, nothing answers 500, and the heap measured in the same state (project
 * reset, after a full collection) before and after the last 20 000 requests has not grown.
 */

let server: RunningServer;
const gc = collectGarbage();

beforeAll(async () => {
  // Far more calls a minute than any plan allows: the limiter still counts each (and sends its headers), never refuses.
  server = await startServer({ port: 0, rateLimitPerMinute: 1_000_000_000 });
});
afterAll(() => server.close());

async function settledHeap(): Promise<number> {
  server.registry.reset("demo");
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe("a sustained mixed stream", () => {
  it("keeps journals, tokens and the token index bounded, and the heap flat", async () => {
    const warmUp = await soak({ url: server.url, requests: 10_000, concurrency: 16 });
    expect(warmUp.statuses.get(500)).toBeUndefined();
    const demo = server.registry.get("demo");
    expect(demo.journal.size).toBeLessThanOrEqual(1000);
    const tokensBefore = exportProject(demo).tokens.map((token) => token.access_token);
    expect(tokensBefore.length).toBeGreaterThan(0);

    const before = await settledHeap();
    const main = await soak({
      url: server.url,
      requests: 20_000,
      concurrency: 16,
      sampleEvery: 2500,
      onSample: () => {
        const project = server.registry.get("demo");
        expect(project.journal.size).toBeLessThanOrEqual(1000);
        expect(project.tokens.size).toBeLessThanOrEqual(1000);
      },
    });
    expect(main.statuses.get(500)).toBeUndefined();
    expect(main.sent).toBe(20_000);
    const after = await settledHeap();

    // Tokens of an earlier world are not kept anywhere: the registry's index forgot them.
    for (const token of tokensBefore) expect(server.registry.projectForToken(token)).toBeUndefined();
    // 20 000 requests leaking 256 bytes each would be 5 MB.
    expect((after - before) / 1024 / 1024).toBeLessThan(5);
  }, 120_000);
});
