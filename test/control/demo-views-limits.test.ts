import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { demoWithEarnings, earningsWorld } from "../helpers/earnings-project.js";
import { send } from "../helpers/http.js";
import { v2Headers } from "../helpers/v2.js";
import { activityReference } from "../helpers/views-reference.js";
import { buildWorld, DEMO_KEYS, worldWith } from "../helpers/world.js";

/**
 * Issue 44's findings in the audience views, one test each: the story's next_at went through Number() and came
 * back rounded, sums of points were doubles, and the activity scanned every event for each journal entry. The
 * overview's 500 past about 120,000 point earnings (a spread of every earning into Math.min overflowed the stack)
 * is test/slow/views-earnings-scale.test.ts's, as building 150,000 earnings takes seconds of CPU; the spreads'
 * whole class is test/structure/spread-calls.test.ts's.
 */

describe("GET /__mock/projects/{projectId}/customers/{customerId}/story - 64-bit values", () => {
  it("next_at is the next tier's min_value exactly (0.10.0: 9223372036854775806 as 9223372036854776000)", async () => {
    const world = buildWorld();
    const tier = await send(world.app, {
      method: "POST",
      path: "/v2/loyalties/tier-structures/lts_d0000000000000001/tiers",
      headers: { ...(await v2Headers(world)), "Content-Type": "application/json" },
      body: '{"name":"Huge","qualification_rules":{"type":"POINTS","min_value":9223372036854775806,"max_value":9223372036854775807}}',
    });
    expect(tier.status).toBe(200);
    const res = await control(world.app, {
      method: "GET",
      path: "/__mock/projects/demo/customers/cust_demo_alice/story",
    });
    expect(res.status).toBe(200);
    // Alice's 1,450 points stand in Silver (1,000-4,999); the next tier starts at 2^63-2, on the ladder too (issue
    // 45). Compared as text.
    expect(res.text).toContain(
      '"tier":"Silver","next_tier":"Huge","next_at":9223372036854775806,"points":1450,"percent":0,' +
        '"ladder":[{"name":"Bronze","from":0},{"name":"Silver","from":1000},{"name":"Huge","from":9223372036854775806}]}',
    );
  });
});

describe("GET /__mock/projects/{projectId}/overview - points past 2^53", () => {
  it("points_issued and the series are exact sums, written as digits", async () => {
    const max = Number.MAX_SAFE_INTEGER;
    const created = "2026-01-01T00:00:00.000Z";
    const world = worldWith({
      project: { id: "huge" },
      campaigns: [
        {
          id: "camp_huge",
          name: "Huge",
          campaign_type: "LOYALTY_PROGRAM",
          type: "STATIC",
          voucher: { type: "LOYALTY_CARD", loyalty_card: { points: 0 } },
          created_at: created,
        },
      ],
      customers: ["cust_h1", "cust_h2"].map((id) => ({ id, created_at: created })),
      vouchers: ["cust_h1", "cust_h2"].map((holder, i) => ({
        id: `v_h${i}`,
        code: `HUGE-${i}`,
        campaign_id: "camp_huge",
        type: "LOYALTY_CARD",
        loyalty_card: { points: max, balance: max - 1 },
        holder_id: holder,
        created_at: created,
      })),
    });
    const res = await control(world.app, { method: "GET", path: "/__mock/projects/huge/overview" });
    expect(res.status).toBe(200);
    // 2 * (2^53 - 1) = 18014398509481982 and 2 * (2^53 - 2); as doubles they would be ...984 and ...980.
    expect(res.text).toContain(
      '"members":2,"customers":2,"points_issued":18014398509481982,"balance_outstanding":18014398509481980',
    );
    expect(res.text).toContain('"total":18014398509481982}]');
  });
});

describe("GET /__mock/projects/{projectId}/activity at many events", () => {
  it("names the points of each journaled event as a scan of every event would", async () => {
    const world = earningsWorld(demoWithEarnings({ members: 200, earnings: 20_000 }));
    for (let i = 0; i < 120; i++) {
      const who = `m${(i * 7) % 200}@example.com`;
      const event = i % 3 === 0 ? "loyalty_bonus" : "user_subscribed";
      const res = await send(world.app, {
        method: "POST",
        path: "/v1/events",
        headers: DEMO_KEYS,
        body: {
          event,
          customer: { source_id: who },
          metadata: event === "user_subscribed" ? { plan: "pro" } : {},
        },
      });
      expect(res.status).toBe(200);
      // Now and then the clock goes back, so recorded times are not in order.
      if (i % 25 === 24) world.registry.get("demo").clock.advance(-3600);
    }
    const res = await control(world.app, {
      method: "GET",
      path: "/__mock/projects/demo/activity?limit=1000",
    });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(120);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(activityReference(world.registry.get("demo"), 1000))));
  });
});
