import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { send } from "../helpers/http.js";
import { v2Headers } from "../helpers/v2.js";
import { buildWorld, DEMO_KEYS, type World } from "../helpers/world.js";

/**
 * Issue 45: the moments that matter, shown as moments, and less noise. A customer reaching a tier is a sentence in
 * the activity and her timeline, read from the same standing as the story's tier; the webhooks a request caused
 * are one line; token requests stay out of the audience's activity; event names read as words; the audience sees
 * the structures the project's setting names.
 */

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
const get = async (world: World, path: string) => {
  const res = await control(world.app, { method: "GET", path: `/__mock/projects/demo/${path}` });
  expect(res.status).toBe(200);
  return res.body;
};

/**
 * Zofia joins and earns 100 and four times 250 points: 1,100, which is Silver (1,000-4,999) in Demo Tiers. A
 * second between calls, as a running clock has them: the activity tells a journaled event by the event nearest it.
 */
async function zofiaReachesSilver(world: World) {
  await join(world, "zofia@example.com", "Zofia Lis");
  world.clock.advance(1);
  await event(world, "zofia@example.com", "user_subscribed", { plan: "pro" });
  for (let i = 0; i < 4; i++) {
    world.clock.advance(1);
    await event(world, "zofia@example.com", "loyalty_bonus");
  }
  return world.demo.customers.findBySourceId("zofia@example.com")?.id as string;
}

describe("GET /__mock/projects/{projectId}/activity - the moments that matter", () => {
  it("the event that takes a customer into a tier carries the sentence; tokens are left out; webhooks are one group", async () => {
    const world = buildWorld();
    await zofiaReachesSilver(world);
    // A v2 call takes a token first: the journal keeps the token request, the audience does not see it.
    await v2Headers(world);
    const { activity } = await get(world, "activity?limit=50");
    expect(world.demo.journal.list().some((entry) => entry.operation === "generateToken")).toBe(true);
    expect(activity.map((item: { text: string }) => item.text)).toEqual([
      "Zofia Lis earned 250 points for loyalty bonus",
      "Zofia Lis earned 250 points for loyalty bonus",
      "Zofia Lis earned 250 points for loyalty bonus",
      "Zofia Lis earned 250 points for loyalty bonus",
      "Zofia Lis earned 100 points for user subscribed",
      expect.stringMatching(/^Zofia Lis joined Demo Loyalty Program with card DEMO-/),
    ]);
    // 100, 350, 600, 850, 1,100: the fourth bonus crosses 1,000, and only it says so.
    expect(activity.map((item: { moments: string[] }) => item.moments)).toEqual([
      ["Zofia Lis reached Silver"],
      [],
      [],
      [],
      [],
      [],
    ]);
    expect(activity.at(-1).webhooks).toEqual({
      summary: "4 webhooks recorded (no endpoint)",
      lines: [
        "customer created: recorded (no endpoint)",
        "publication succeeded: recorded (no endpoint)",
        "customer publication succeeded: recorded (no endpoint)",
        "voucher published: recorded (no endpoint)",
      ],
    });
    expect(activity[0].webhooks.summary).toBe("5 webhooks recorded (no endpoint)");
  });

  it("says nothing of a tier made after the event that crossed into its range", async () => {
    const world = buildWorld();
    // Carol's history took her from 4,950 to 5,200 points on 2026-11-16, past Silver (to 4,999): in no tier.
    const gold = await send(world.app, {
      method: "POST",
      path: "/v2/loyalties/tier-structures/lts_d0000000000000001/tiers",
      headers: { ...(await v2Headers(world)), "Content-Type": "application/json" },
      body: { name: "Gold", qualification_rules: { type: "POINTS", min_value: 5000, max_value: 9999 } },
    });
    expect(gold.status).toBe(200);
    world.clock.advance(1);
    expect((await event(world, "carol@example.com", "loyalty_bonus")).status).toBe(200);
    const story = await get(world, "customers/cust_demo_carol/story");
    // Gold is hers now (the story's tier), but no event took her there: it was made after she crossed 5,000.
    expect(story.cards[0].progress[0]).toMatchObject({ tier: "Gold", points: 5450 });
    expect(story.timeline.filter((entry: { kind: string }) => entry.kind === "tier")).toEqual([]);
    const { activity } = await get(world, "activity?limit=50");
    expect(activity.flatMap((item: { moments: string[] }) => item.moments)).toEqual([]);
  });
});

describe("GET .../customers/{customerId}/story - the moments that matter", () => {
  it("the timeline says the tier she reached, groups each request's webhooks, and reads event names as words", async () => {
    const world = buildWorld();
    const zofia = await zofiaReachesSilver(world);
    const story = await get(world, `customers/${zofia}/story`);
    const timeline = story.timeline as { kind: string; text: string; details?: string[] }[];
    expect(timeline.filter((entry) => entry.kind === "tier").map((entry) => entry.text)).toEqual([
      "Zofia Lis reached Silver",
    ]);
    // Newest first: the last bonus, its points, the tier it reached, then the five webhooks it caused, in one entry.
    expect(timeline.slice(0, 4).map((entry) => [entry.kind, entry.text])).toEqual([
      ["event", "Sent loyalty bonus"],
      ["points", expect.stringMatching(/^Earned 250 points for loyalty bonus on DEMO-/)],
      ["tier", "Zofia Lis reached Silver"],
      ["webhooks", "5 webhooks recorded (no endpoint)"],
    ]);
    expect(timeline[3]?.details).toHaveLength(5);
    expect(timeline.filter((entry) => entry.kind === "webhooks")).toHaveLength(6);
    // The card says the same tier, with the structure's ladder.
    expect(story.cards[0].progress).toEqual([
      {
        structure_id: "lts_d0000000000000001",
        structure_name: "Demo Tiers",
        tier: "Silver",
        next_tier: null,
        next_at: null,
        points: 1100,
        percent: 100,
        ladder: [
          { name: "Bronze", from: 0 },
          { name: "Silver", from: 1000 },
        ],
      },
    ]);
  });

  it("the fixtures' history tells Alice reaching Silver, weeks before the clock", async () => {
    const world = buildWorld();
    const story = await get(world, "customers/cust_demo_alice/story");
    const reached = (story.timeline as { at: string; kind: string; text: string }[]).filter(
      (entry) => entry.kind === "tier",
    );
    expect(reached).toEqual([
      { at: "2026-10-29T19:22:00.000Z", kind: "tier", text: "Alice Nowak reached Silver" },
    ]);
  });
});

describe("the audience's tier structures (audience_tier_structures)", () => {
  it("the overview and the story show the structures the setting names; without it, every one", async () => {
    const world = buildWorld();
    const ids = async () => ({
      overview: (await get(world, "overview")).tier_distribution.map(
        (s: { structure_id: string }) => s.structure_id,
      ),
      story: (await get(world, "customers/cust_demo_alice/story")).cards[0].progress.map(
        (p: { structure_id: string }) => p.structure_id,
      ),
    });
    expect(await ids()).toEqual({ overview: ["lts_d0000000000000001"], story: ["lts_d0000000000000001"] });
    const patched = await control(world.app, {
      method: "PATCH",
      path: "/__mock/projects/demo/settings",
      body: { audience_tier_structures: null },
    });
    expect(patched.body.settings).toEqual({});
    const all = [
      "lts_d0000000000000001",
      "lts_d0000000000000002",
      "lts_d0000000000000003",
      "lts_d0000000000000004",
    ];
    expect(await ids()).toEqual({ overview: all, story: all });
    await control(world.app, {
      method: "PATCH",
      path: "/__mock/projects/demo/settings",
      body: { audience_tier_structures: ["lts_d0000000000000004", "lts_nope"] },
    });
    expect(await ids()).toEqual({ overview: ["lts_d0000000000000004"], story: ["lts_d0000000000000004"] });
  });

  it("with two structures shown, a moment names its structure", async () => {
    const world = buildWorld();
    await control(world.app, {
      method: "PATCH",
      path: "/__mock/projects/demo/settings",
      body: { audience_tier_structures: ["lts_d0000000000000001", "lts_d0000000000000004"] },
    });
    await zofiaReachesSilver(world);
    const { activity } = await get(world, "activity?limit=1");
    expect(activity[0].moments).toEqual([
      "Zofia Lis reached Silver in Demo Tiers",
      "Zofia Lis reached Gold in Open-ended tiers",
    ]);
  });

  it("a setting that is not a list of ids is 400 and changes nothing", async () => {
    const world = buildWorld();
    for (const value of ["lts_d0000000000000001", [""], Array.from({ length: 21 }, (_, i) => `lts_${i}`)]) {
      const res = await control(world.app, {
        method: "PATCH",
        path: "/__mock/projects/demo/settings",
        body: { audience_tier_structures: value },
      });
      expect(res.status).toBe(400);
      expect(res.body.key).toBe("invalid_payload");
      expect(res.body.details).toMatch(/audience_tier_structures/);
    }
    expect(world.demo.settings).toEqual({ audience_tier_structures: ["lts_d0000000000000001"] });
  });
});

describe("GET /__mock/projects/{projectId}/customer-search", () => {
  it("finds whoever exists now: newest first, by part of a name or email, by exact id or source id", async () => {
    const world = buildWorld();
    await join(world, "dana@example.com", "Dana Demo");
    await join(world, "zofia@example.com", "Zofia Lis");
    const names = async (query: string) =>
      (await get(world, `customer-search?${query}`)).customers.map((c: { name: string }) => c.name);
    expect(await names("limit=3")).toEqual(["Zofia Lis", "Dana Demo", "Erin Walsh"]);
    expect(await names("q=DANA")).toEqual(["Dana Demo"]);
    expect(await names("q=example.com&limit=2")).toEqual(["Zofia Lis", "Dana Demo"]);
    expect(await names("q=cust_demo_alice")).toEqual(["Alice Nowak"]);
    expect(await names("q=bob%40example.com")).toEqual(["Bob Schmidt"]);
    expect(await names("q=nobody")).toEqual([]);
    const answer = await get(world, "customer-search?q=dana");
    expect(answer).toEqual({
      object: "list",
      data_ref: "customers",
      customers: [
        {
          id: world.demo.customers.findBySourceId("dana@example.com")?.id,
          name: "Dana Demo",
          source_id: "dana@example.com",
          email: null,
          created_at: "2026-11-20T10:00:00.000Z",
        },
      ],
      total: 1,
    });
  });

  it("a limit out of 1-100 is 400", async () => {
    const world = buildWorld();
    for (const limit of ["0", "101", "x"]) {
      const res = await control(world.app, {
        method: "GET",
        path: `/__mock/projects/demo/customer-search?limit=${limit}`,
      });
      expect(res.status).toBe(400);
      expect(res.body.key).toBe("invalid_payload");
    }
  });
});
