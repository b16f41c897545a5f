import { describe, expect, it } from "vitest";
import { storyOf } from "../../src/http/control/demo/figures.js";
import { control } from "../helpers/control.js";
import { demoWithEarnings, earningsWorld } from "../helpers/earnings-project.js";
import { overviewReference } from "../helpers/views-reference.js";

/**
 * Issue 44's finding in the audience views at scale, in process: the overview answered 500 past about 120,000
 * point earnings (a spread of every earning into Math.min overflowed the stack), and a story of a card holding
 * them all must list each. In the slow tier: building 150,000 earnings twice costs seconds of CPU
 * (test/control/demo-views-limits.test.ts holds the other findings; test/slow/views-scale.test.ts the same views
 * on the real process).
 */

describe("GET /__mock/projects/{projectId}/overview at 150,000 earnings", () => {
  it("answers 200 with every point in its series (0.10.0: 500, Maximum call stack size exceeded)", async () => {
    const world = earningsWorld(demoWithEarnings({ members: 1500, earnings: 150_000 }));
    const res = await control(world.app, { method: "GET", path: "/__mock/projects/demo/overview" });
    expect(res.status).toBe(200);
    const series = res.body.points_over_time as { earned: number; total: number }[];
    // 150,000 minutes is 104 days: since issue 45 the whole of it is shown, in 53 buckets of two days (a series
    // keeps to 60), with the demo's own few weeks of history inside them.
    expect(series).toHaveLength(53);
    expect(series.at(-1)?.total).toBe(res.body.points_issued);
    const history = world.registry
      .get("demo")
      .events.list()
      .filter((event) => !event.id.startsWith("evcus_m"))
      .flatMap((event) => event.earned)
      .reduce((sum, earning) => sum + earning.points, 0);
    expect(series.reduce((sum, bucket) => sum + bucket.earned, 0)).toBe(150_000 * 100 + history);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(overviewReference(world.registry.get("demo")))));
  });

  it("a story of a card with all 150,000 earnings answers with each of them", () => {
    const world = earningsWorld(demoWithEarnings({ members: 2, earnings: 150_000, heavy: 150_000 }));
    const story = storyOf(world.registry.get("demo"), "cust_m0");
    const [card] = story.cards;
    expect(card?.points).toBe(15_000_000);
    expect(card?.balance_over_time.at(-1)?.balance).toBe(15_000_000);
    // The customer, her publication, and each event with its points.
    expect(story.timeline).toHaveLength(1 + 1 + 2 * 150_000);
  });
});
