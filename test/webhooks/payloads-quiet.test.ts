import { describe, expect, it } from "vitest";
import { runRow } from "../helpers/notifications.js";
import { buildWorld } from "../helpers/world.js";

/**
 * The vendor's v2024-01-01 webhooks have no event for a token, a location read, a v2 tier or a v2 incentive: v2
 * tiers and incentives (benefits) report through Workflows (`vl.tier_structure.tier.created`, ...), which the
 * emulator does not run, and `campaign.loyalty_tier.created` is about a v1 campaign's tiers (`ltr_`), not these.
 */
describe("operations that notify nothing", () => {
  it("token, location, tier and incentive succeed without calling notify", () => {
    const world = buildWorld();
    const { demo } = world;
    const runs = [
      runRow(
        world,
        demo,
        "generateToken",
        {},
        { grant_type: "client_credentials", scope: "api" },
        "demo-app-id",
      ),
      runRow(world, demo, "getLocation", { locationId: "loc_demo_circle" }, undefined),
      runRow(
        world,
        demo,
        "createTier",
        { id: "lts_d0000000000000001" },
        {
          name: "Gold",
          qualification_rules: { type: "POINTS", min_value: 5000 },
        },
      ),
      runRow(world, demo, "deleteIncentive", { id: "linc_d0000000000000001" }, undefined),
    ];
    expect(runs.map((run) => run.response.object ?? run.response.token_type)).toEqual([
      "Bearer",
      "location",
      "tier",
      "incentive",
    ]);
    for (const run of runs) expect(run.calls).toEqual([]);
  });

  it("the generally available Loyalty v2's tier and benefit deletion succeed without calling notify too", () => {
    const world = buildWorld();
    const { demo } = world;
    const runs = [
      runRow(
        world,
        demo,
        "createTier",
        { id: "lts_d0000000000000001" },
        { name: "Gold", qualification_rules: { type: "POINTS", points: { min_value: 5000 } } },
      ),
      runRow(world, demo, "deleteBenefit", { benefitId: "lben_d0000000000000001" }, undefined),
    ];
    expect(runs.map((run) => run.response.object)).toEqual(["tier", "benefit"]);
    for (const run of runs) expect(run.calls).toEqual([]);
  });
});
