import request from "supertest";
import { describe, expect, it } from "vitest";
import { createApp, createHttpServer } from "../../src/index.js";
import { control } from "../helpers/control.js";
import { send } from "../helpers/http.js";
import { useServer } from "../helpers/listen.js";
import { callControl } from "../helpers/running-server.js";
import { buildWorld, DEMO_KEYS, type World } from "../helpers/world.js";

/** The dashboard's audience views (issue 35): overview, a customer's story, activity as sentences, plays. */

const join = (world: World, sourceId: string, name: string) =>
  send(world.app, {
    method: "POST",
    path: "/v1/loyalties/camp_demo_loyalty/members",
    headers: DEMO_KEYS,
    body: { customer: { source_id: sourceId, name } },
  });
const event = (world: World, sourceId: string, type: string, metadata: object = {}) =>
  send(world.app, {
    method: "POST",
    path: "/v1/events",
    headers: DEMO_KEYS,
    body: { event: type, customer: { source_id: sourceId }, metadata },
  });

describe("GET /__mock/projects/{projectId}/overview", () => {
  it("members, points and balances are the held cards'; the series ends at the project's clock and follows it", async () => {
    const world = buildWorld();
    const held = world.demo.vouchers.list().filter((card) => card.holder_id && card.loyalty_card);
    // The fixtures' few weeks of history (issue 45) are in the series too, before the test's two events.
    const history = world.demo.events
      .list()
      .flatMap((e) => e.earned)
      .reduce((sum, earning) => sum + earning.points, 0);
    const first = await control(world.app, { method: "GET", path: "/__mock/projects/demo/overview" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      members: held.length,
      customers: world.demo.customers.size,
      points_issued: held.reduce((sum, card) => sum + (card.loyalty_card?.points ?? 0), 0),
      balance_outstanding: held.reduce((sum, card) => sum + (card.loyalty_card?.balance ?? 0), 0),
    });
    await join(world, "zofia@example.com", "Zofia Lis");
    await event(world, "zofia@example.com", "user_subscribed", { plan: "pro" });
    await control(world.app, {
      method: "POST",
      path: "/__mock/projects/demo/clock",
      body: { advance_seconds: 3 * 86_400 },
    });
    await event(world, "zofia@example.com", "loyalty_bonus");
    const after = await control(world.app, { method: "GET", path: "/__mock/projects/demo/overview" });
    const body = after.body as {
      members: number;
      points_issued: number;
      points_over_time: { at: string; earned: number; total: number }[];
      tier_distribution: {
        structure_id: string;
        tiers: { name: string; members: number }[];
        no_tier: number;
      }[];
    };
    expect(body.members).toBe(held.length + 1);
    expect(body.points_issued).toBe((first.body.points_issued as number) + 350);
    const series = body.points_over_time;
    expect(series.at(-1)?.total).toBe(body.points_issued);
    expect(history).toBeGreaterThan(0);
    expect(series.reduce((sum, bucket) => sum + bucket.earned, 0)).toBe(history + 350);
    expect(Date.parse(series.at(-1)?.at ?? "")).toBeLessThanOrEqual(world.registry.get("demo").clock.now());
    const sinceJoin = series.filter((bucket) => bucket.at >= "2026-11-20");
    expect(sinceJoin.map((bucket) => bucket.earned).filter((earned) => earned > 0)).toEqual([100, 250]);
    expect(series[0]?.total).toBeLessThan(series.at(-1)?.total ?? 0);
    const demoTiers = body.tier_distribution.find((s) => s.structure_id === "lts_d0000000000000001");
    const counted =
      (demoTiers?.tiers ?? []).reduce((sum, tier) => sum + tier.members, 0) + (demoTiers?.no_tier ?? 0);
    expect(counted).toBe(body.members);
    expect(demoTiers?.tiers.find((tier) => tier.name === "Bronze")?.members).toBeGreaterThan(0);
  });
});

describe("GET /__mock/projects/{projectId}/customers/{customerId}/story", () => {
  it("her card, progress towards the next tier, balance over time and timeline; 404 for an unknown customer", async () => {
    const world = buildWorld();
    await join(world, "zofia@example.com", "Zofia Lis");
    await event(world, "zofia@example.com", "user_subscribed", { plan: "pro" });
    const zofia = world.registry.get("demo").customers.findBySourceId("zofia@example.com");
    const res = await control(world.app, {
      method: "GET",
      path: `/__mock/projects/demo/customers/${zofia?.id}/story`,
    });
    expect(res.status).toBe(200);
    const [card] = res.body.cards as {
      points: number;
      progress: { structure_id: string; tier: string; next_tier: string; next_at: number; percent: number }[];
      balance_over_time: { balance: number }[];
    }[];
    expect(card?.points).toBe(100);
    expect(card?.progress.find((p) => p.structure_id === "lts_d0000000000000001")).toMatchObject({
      tier: "Bronze",
      next_tier: "Silver",
      next_at: 1000,
      percent: 10,
    });
    expect(card?.balance_over_time.at(-1)?.balance).toBe(100);
    expect((res.body.timeline as { text: string }[]).map((entry) => entry.text)).toEqual(
      expect.arrayContaining([
        // Event names read as words (issue 45).
        "Earned 100 points for user subscribed on " +
          world.registry
            .get("demo")
            .vouchers.list()
            .find((v) => v.holder_id === zofia?.id)?.code,
        "Sent user subscribed",
        "Zofia Lis became a customer",
      ]),
    );
    const unknown = await control(world.app, {
      method: "GET",
      path: "/__mock/projects/demo/customers/cust_nope/story",
    });
    expect(unknown.status).toBe(404);
  });
});

describe("GET /__mock/projects/{projectId}/activity", () => {
  it("each request a sentence naming people and things, newest first, failures plainly", async () => {
    const world = buildWorld();
    await join(world, "zofia@example.com", "Zofia Lis");
    await event(world, "alice@example.com", "user_subscribed", { plan: "pro" });
    await join(world, "zofia@example.com", "Zofia Lis");
    const res = await control(world.app, { method: "GET", path: "/__mock/projects/demo/activity?limit=3" });
    const texts = (res.body.activity as { ok: boolean; text: string }[]).map(({ ok, text }) => ({
      ok,
      text,
    }));
    expect(texts).toEqual([
      {
        ok: false,
        text: "Zofia Lis could not join Demo Loyalty Program: 400, Customer already joined program",
      },
      { ok: true, text: "Alice Nowak earned 100 points for user subscribed" },
      { ok: true, text: expect.stringMatching(/^Zofia Lis joined Demo Loyalty Program with card DEMO-/) },
    ]);
  });

  it("tells an operation by the name its row gave the entry, never by a URL that only looks like its path", async () => {
    const world = buildWorld();
    await send(world.app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS });
    // The shape of a location's path with one segment more: no row handled it, so it is told as the request it was.
    await request(world.app).get("/v1/locations/loc_demo_circle/extra").set(DEMO_KEYS);
    const res = await control(world.app, { method: "GET", path: "/__mock/projects/demo/activity?limit=2" });
    const texts = (res.body.activity as { text: string }[]).map(({ text }) => text);
    expect(texts[0]).toMatch(/^GET \/v1\/locations\/loc_demo_circle\/extra failed: 404/);
    expect(texts[1]).toMatch(/^The app looked up the location /);
  });
});

describe("scenarios and plays", () => {
  const listen = useServer();

  it("GET /__mock/scenarios lists the shipped ones; POST .../plays plays one through this server's operations", async () => {
    const world = buildWorld();
    const { url } = await listen(createHttpServer(createApp({ registry: world.registry })));
    const call = (method: string, path: string, body?: unknown) => callControl({ url }, method, path, body);
    const scenarios = await call("GET", "/__mock/scenarios");
    expect((scenarios.body.scenarios as { name: string }[]).map((s) => s.name)).toEqual([
      "busy-saturday",
      "first-month",
    ]);
    const unknown = await call("POST", "/__mock/projects/demo/plays", { scenario: "nope" });
    expect(unknown.status).toBe(404);
    const started = await call("POST", "/__mock/projects/demo/plays", {
      scenario: "first-month",
      speed: 1000,
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: "running", steps: 21, scenario: "first-month" });
    let play: Record<string, unknown> = started.body;
    const deadline = Date.now() + 10_000;
    while (play.status === "running" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      play =
        ((await call("GET", "/__mock/projects/demo/plays")).body.plays as Record<string, unknown>[])[0] ?? {};
    }
    expect(play).toMatchObject({ status: "done", played: 21, failure: null });
    const demo = world.registry.get("demo");
    expect(demo.customers.findBySourceId("zofia.lis@example.com")?.name).toBe("Zofia Lis");
    // Its calls are any client's in the journal: the project's key, authenticated.
    const members = demo.journal.list({ path: "/v1/loyalties/camp_demo_loyalty/members" });
    expect(members.map((entry) => [entry.status, entry.authenticated, entry.headers["x-app-id"]])).toEqual([
      [200, true, "demo-app-id"],
    ]);
    // A reset builds the project anew: the plays that ended before it are not told after it (issue 45).
    expect((await call("POST", "/__mock/projects/demo/reset")).status).toBe(200);
    expect((await call("GET", "/__mock/projects/demo/plays")).body.plays).toEqual([]);
  });
});
