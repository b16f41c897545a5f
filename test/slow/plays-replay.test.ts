import { describe, expect, it } from "vitest";
import { createApp, createHttpServer } from "../../src/index.js";
import { useServer } from "../helpers/listen.js";
import { callControl } from "../helpers/running-server.js";
import { buildWorld } from "../helpers/world.js";

/**
 * Issue 45: every shipped scenario can be played again, and after another, on the default fixtures, through the
 * dashboard's Play (POST .../plays). In the slow tier: the four plays make about 450 calls.
 */
describe("the shipped scenarios, played again and after each other", () => {
  const listen = useServer();

  it("first-month twice, then busy-saturday twice: every play done, each run's people new", async () => {
    const world = buildWorld();
    const { url } = await listen(createHttpServer(createApp({ registry: world.registry })));
    const call = (method: string, path: string, body?: unknown) => callControl({ url }, method, path, body);
    const play = async (scenario: string) => {
      const started = await call("POST", "/__mock/projects/demo/plays", { scenario, speed: 1000 });
      expect(started.status).toBe(202);
      let last: Record<string, unknown> = started.body;
      const deadline = Date.now() + 60_000;
      while (last.status === "running" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const plays = (await call("GET", "/__mock/projects/demo/plays")).body.plays as Record<
          string,
          unknown
        >[];
        last = plays.find((one) => one.id === started.body.id) ?? last;
      }
      return last as {
        status: string;
        failure: string | null;
        lines: string[];
        played: number;
        steps: number;
      };
    };
    const customers = () => world.registry.get("demo").customers.size;
    const before = customers();
    const runs = [];
    for (const scenario of ["first-month", "first-month", "busy-saturday", "busy-saturday"]) {
      const done = await play(scenario);
      expect(done, `${scenario}: ${done.failure}`).toMatchObject({ status: "done", failure: null });
      runs.push(done);
    }
    const demo = world.registry.get("demo");
    expect(demo.customers.findBySourceId("zofia.lis@example.com")?.name).toBe("Zofia Lis");
    expect(demo.customers.findBySourceId("zofia.lis+2@example.com")?.name).toBe("Zofia Lis");
    expect(demo.customers.findBySourceId("maja.nowicka+2@example.com")?.name).toBe("Maja Nowicka");
    // One new customer in each first-month, 36 in each busy-saturday.
    expect(customers() - before).toBe(1 + 1 + 36 + 36);
    // The second first-month finds Gold made and the draft incentive deleted, and says so; so does each
    // busy-saturday, which makes the same tier and deletes the same incentive.
    expect(runs[1]?.lines.filter((line) => /already$/.test(line))).toEqual([
      expect.stringMatching(/tier +Gold \(5000-9999 points\) is in lts_d0000000000000001 already$/),
      expect.stringMatching(/delete_incentive +linc_d0000000000000003 was deleted already$/),
    ]);
    for (const run of runs.slice(2))
      expect(run.lines.filter((line) => /already$/.test(line))).toHaveLength(2);
    const tiers = demo.tierStructures.get("lts_d0000000000000001").tiers.map((tier) => tier.name);
    expect(tiers).toEqual(["Bronze", "Silver", "Gold"]);
  });
});
