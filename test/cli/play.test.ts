import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../src/cli/command-line.js";
import { playScenario } from "../../src/clients/play/player.js";
import { parseScenario, shippedScenarios } from "../../src/clients/play/scenario.js";
import { createApp, createHttpServer } from "../../src/index.js";
import { useServer } from "../helpers/listen.js";
import { portBelowEphemeral } from "../helpers/ports.js";
import { buildWorld, type World } from "../helpers/world.js";
import { play, scenarioFile } from "./play-helpers.js";

/**
 * `loyalty-mock play <scenario>` (issue 35): each step kind through the public operations of a listening server,
 * a failing step named with a non-zero exit, --speed dividing the pauses, and the shipped scenarios on the
 * default fixtures.
 */

const listen = useServer();

async function served(world: World = buildWorld()) {
  const { url } = await listen(createHttpServer(createApp({ registry: world.registry })));
  return { world, url };
}

const EVERY_KIND = {
  title: "Every kind of step",
  steps: [
    {
      type: "join",
      campaign: "camp_demo_loyalty",
      customer: { source_id: "zofia@example.com", name: "Zofia Lis", email: "zofia@example.com" },
    },
    { type: "event", event: "user_subscribed", customer: "zofia@example.com", metadata: { plan: "pro" } },
    { type: "clock", advance: "2d" },
    { type: "tier", structure: "lts_d0000000000000001", name: "Gold", min_points: 5000, max_points: 9999 },
    { type: "delete_incentive", incentive: "linc_d0000000000000003" },
    { type: "pause", seconds: 1 },
  ],
};

describe("loyalty-mock play", () => {
  it("plays each kind of step through the operations, printing each as it happens", async () => {
    const { world, url } = await served();
    const before = world.demo.clock.now();
    const { status, out, err } = await play({ scenario: scenarioFile(EVERY_KIND), url });
    expect(err).toBe("");
    expect(status).toBe(0);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toBe(`Playing "Every kind of step" (6 steps) in project demo on ${url}`);
    expect(lines.slice(1, 7).map((line) => line.replace(/\s+/g, " "))).toEqual([
      // Each join and event ends with the card's points, read from the control API (issue 47).
      expect.stringMatching(
        /^1\/6 join Zofia Lis \(zofia@example.com\) joined camp_demo_loyalty: card DEMO-\S+, 0 points$/,
      ),
      expect.stringMatching(/^2\/6 event user_subscribed by zofia@example.com: DEMO-\S+ 100 points$/),
      expect.stringMatching(/^3\/6 clock \+2d: the project's clock shows 2026-11-22T10:00:00.000Z$/),
      expect.stringMatching(/^4\/6 tier Gold \(5000-9999 points\) created in lts_d0000000000000001: lt_\w+$/),
      "5/6 delete_incentive linc_d0000000000000003 deleted",
      "6/6 pause 1 s (0.001 s at speed 1000)",
    ]);
    expect(lines[7]).toBe("Done: 6 steps played.");

    const demo = world.registry.get("demo");
    const zofia = demo.customers.findBySourceId("zofia@example.com");
    expect(zofia?.name).toBe("Zofia Lis");
    const card = demo.vouchers.list().find((voucher) => voucher.holder_id === zofia?.id);
    expect(card?.loyalty_card?.points).toBe(100);
    expect(demo.events.list().some((event) => event.type === "user_subscribed")).toBe(true);
    expect(demo.clock.now()).toBe(before + 2 * 86_400_000);
    expect(demo.tierStructures.get("lts_d0000000000000001").tiers.map((tier) => tier.name)).toContain("Gold");
    expect(demo.incentives.get("linc_d0000000000000003").status).toBe("DELETED");

    // The journal shows the calls as any client's: the project's key, authenticated, a token for the v2 calls.
    const journal = demo.journal.list().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
    expect(journal).toEqual(
      expect.arrayContaining([
        "POST /v1/loyalties/camp_demo_loyalty/members 200",
        "POST /v1/events 200",
        "POST /v1/oauth/token 200",
        "POST /v2/loyalties/tier-structures/lts_d0000000000000001/tiers 200",
        "DELETE /v2/loyalties/incentives/linc_d0000000000000003 200",
      ]),
    );
    expect(demo.journal.list().every((entry) => entry.authenticated)).toBe(true);
  });

  it("a failing step: exit 1, the step named, nothing after it played", async () => {
    const { world, url } = await served();
    const scenario = {
      title: "Overlap",
      steps: [
        {
          type: "tier",
          structure: "lts_d0000000000000001",
          name: "Too low",
          min_points: 500,
          max_points: 600,
        },
        { type: "join", campaign: "camp_demo_loyalty", customer: { source_id: "never@example.com" } },
      ],
    };
    const { status, out, err } = await play({ scenario: scenarioFile(scenario), url });
    expect(status).toBe(1);
    expect(err).toMatch(
      /^loyalty-mock play: step 1 \(tier Too low\) failed: POST \/v2\/loyalties\/tier-structures\/lts_d0000000000000001\/tiers answered 403 tier_range_overlap: Points range 500-600 overlaps tier lt_d0000000000000001 \(Bronze, points 0-999\)\n$/,
    );
    expect(out).toContain("1/2 tier");
    expect(out).not.toContain("2/2");
    expect(world.registry.get("demo").customers.findBySourceId("never@example.com")).toBeUndefined();
  });

  it("a server that does not answer fails the first step that calls it", async () => {
    const url = `http://127.0.0.1:${await portBelowEphemeral()}`;
    const { status, err } = await play({
      scenario: scenarioFile(EVERY_KIND),
      url,
      appId: "a",
      appToken: "b",
    });
    expect(status).toBe(1);
    expect(err).toBe(
      `loyalty-mock play: step 1 (join zofia@example.com) failed: ${url} did not answer POST /v1/loyalties/camp_demo_loyalty/members (ECONNREFUSED)\n`,
    );
  });

  it("the key pair: from the flags or the variables, else the project's first active key from the control API", async () => {
    const { url } = await served();
    const wrong = await play({
      scenario: scenarioFile(EVERY_KIND),
      url,
      appId: "demo-app-id",
      appToken: "nope",
    });
    expect(wrong.status).toBe(1);
    expect(wrong.err).toMatch(/step 1 .* answered 401 unauthorized/);
    const fromEnv = await play(
      { scenario: scenarioFile(EVERY_KIND), url },
      { LOYALTY_MOCK_PLAY_APP_ID: "demo-app-id", LOYALTY_MOCK_PLAY_APP_TOKEN: "demo-app-token" },
    );
    expect(fromEnv.status).toBe(0);
  });

  it("the control API behind a token: the key look-up and the clock step send --admin-token", async () => {
    const world = buildWorld();
    const { url } = await listen(
      createHttpServer(createApp({ registry: world.registry, adminToken: "s3cret" })),
    );
    const refused = await play({ scenario: scenarioFile(EVERY_KIND), url });
    expect(refused.status).toBe(1);
    expect(refused.err).toMatch(/the project's key pair: GET \/__mock\/projects\/demo\/keys answered 401/);
    expect((await play({ scenario: scenarioFile(EVERY_KIND), url, adminToken: "s3cret" })).status).toBe(0);
  });

  it("--speed divides the pauses", async () => {
    const { url } = await served();
    const scenario = parseScenario(JSON.stringify({ title: "Wait", steps: [{ type: "pause", seconds: 2 }] }));
    const timed = async (speed: number) => {
      const started = performance.now();
      const result = await playScenario(scenario, {
        url,
        projectId: "demo",
        keys: { appId: "demo-app-id", appToken: "demo-app-token" },
        speed,
        print: () => undefined,
      });
      expect(result.ok).toBe(true);
      return performance.now() - started;
    };
    const at20 = await timed(20);
    expect(at20).toBeGreaterThanOrEqual(95);
    expect(at20).toBeLessThan(1000);
    const at4 = await timed(4);
    expect(at4).toBeGreaterThanOrEqual(495);
  });

  it("a scenario that does not validate is exit 2 naming where", async () => {
    const { url } = await served();
    const bad = await play({ scenario: scenarioFile({ title: "x", steps: [{ type: "fly" }] }), url });
    expect(bad.status).toBe(2);
    expect(bad.err).toMatch(/scenario.json: \$\.steps\[0\]\.type/);
    const unknown = await play({ scenario: "no-such-story", url });
    expect(unknown.status).toBe(2);
    expect(unknown.err).toMatch(
      /no file no-such-story, and no scenario of that name \(the package has busy-saturday, first-month\)/,
    );
  });

  it.each(shippedScenarios().map(({ name }) => name))(
    "the shipped %s plays on the default fixtures",
    async (name) => {
      const { world, url } = await served();
      const { status, err } = await play({ scenario: name, url });
      expect(err).toBe("");
      expect(status).toBe(0);
      expect(world.registry.get("demo").customers.size).toBeGreaterThan(5);
    },
  );

  it("the shipped first-month shows Zofia's points as they grow, and the step she reaches Silver in", async () => {
    const { url } = await served();
    const { status, out } = await play({ scenario: "first-month", url });
    expect(status).toBe(0);
    const points = [...out.matchAll(/by zofia\.lis@example\.com: DEMO-\S+ (\d+) points/g)].map((m) =>
      Number(m[1]),
    );
    expect(points).toEqual([...points].sort((a, b) => a - b));
    expect(points.at(-1)).toBeGreaterThanOrEqual(1000);
    // Silver is 1000-4999 points in the demo's first structure: said once, on the step that crosses 1000.
    const silver = out.split("\n").filter((line) => line.includes("Silver in Demo Tiers"));
    expect(silver).toEqual([expect.stringMatching(/ 1\d{3} points, now Silver in Demo Tiers[ ,]/)]);
  });

  it("without the control API, a join and an event play and print as before, without the figures", async () => {
    const world = buildWorld();
    const { url } = await listen(
      createHttpServer(createApp({ registry: world.registry, adminToken: "s3cret" })),
    );
    const keys = { appId: "demo-app-id", appToken: "demo-app-token" };
    const scenario = { title: "No control", steps: EVERY_KIND.steps.slice(0, 2) };
    const { status, out, err } = await play({ scenario: scenarioFile(scenario), url, ...keys });
    expect(err).toBe("");
    expect(status).toBe(0);
    expect(out).toMatch(/joined camp_demo_loyalty: card DEMO-[\w-]+\n/);
    expect(out).toMatch(/user_subscribed by zofia@example\.com\n/);
  });

  it("a busy Saturday has dozens of customers", () => {
    const busy = shippedScenarios().find(({ name }) => name === "busy-saturday")?.scenario;
    expect(busy?.steps.filter((step) => step.type === "join").length).toBeGreaterThanOrEqual(24);
  });
});

describe("loyalty-mock play: the command line", () => {
  it("a scenario, and the defaults: the demo project on 127.0.0.1:3000 at speed 1", () => {
    expect(parseCommandLine(["play", "first-month"])).toEqual({
      command: "play",
      scenario: "first-month",
      url: "http://127.0.0.1:3000",
      project: "demo",
      speed: 1,
    });
    expect(
      parseCommandLine([
        "play",
        "s.json",
        "--url",
        "http://h:1/",
        "--project",
        "p",
        "--speed",
        "10",
        "--app-id",
        "i",
        "--app-token",
        "t",
      ]),
    ).toEqual({
      command: "play",
      scenario: "s.json",
      url: "http://h:1",
      project: "p",
      speed: 10,
      appId: "i",
      appToken: "t",
    });
  });

  it.each([
    [["play"], /^play: give a scenario file or name/],
    [["play", "a", "b"], /^play: one scenario at a time/],
    [
      ["play", "a", "--speed", "0"],
      /^play: invalid value for --speed: "0"; expected a number from 0.01 to 1000/,
    ],
    [["play", "a", "--speed", "fast"], /^play: invalid value for --speed: "fast"/],
    [["play", "a", "--url", "localhost:3000"], /^play: invalid value for --url/],
    [["play", "a", "--app-id", "x"], /^play: give --app-id and --app-token together$/],
    [["play", "a", "--sped", "2"], /^play: Unknown option '--sped'; did you mean --speed\?$/],
  ])("%j is a usage error", (args, message) => {
    expect(() => parseCommandLine(args)).toThrow(UsageError);
    expect(() => parseCommandLine(args)).toThrow(message);
  });
});
