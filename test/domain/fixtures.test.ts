import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import { createRegistry } from "../../src/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { DEFAULT_FIXTURES_DIR, FixtureError } from "../../src/platform/fixtures.js";
import { defaultDocuments } from "../helpers/world.js";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fixtures folder holding a copy of the default `other` project, to break on purpose. */
function copyOfOther(): { root: string; project: string } {
  const root = mkdtempSync(join(tmpdir(), "loyalty-mock-fixtures-"));
  temps.push(root);
  const project = join(root, "other");
  cpSync(join(DEFAULT_FIXTURES_DIR, "other"), project, { recursive: true });
  return { root, project };
}

// biome-ignore lint/suspicious/noExplicitAny: tests edit fixture JSON freely to break it
function edit(file: string, change: (data: any) => void): void {
  const data = JSON.parse(readFileSync(file, "utf8"));
  change(data);
  writeFileSync(file, JSON.stringify(data, null, 2));
}

function loadError(root: string): FixtureError {
  try {
    loadProjectDocuments(root);
  } catch (error) {
    if (error instanceof FixtureError) return error;
    throw error;
  }
  throw new Error("the fixtures loaded, but should not have");
}

describe("the embedded default dataset", () => {
  const [demo, other] = ["demo", "other"].map((id) => {
    const doc = defaultDocuments().find((d) => d.project.id === id);
    if (!doc) throw new Error(`no ${id} project`);
    return doc;
  }) as [ReturnType<typeof defaultDocuments>[number], ReturnType<typeof defaultDocuments>[number]];

  it("holds the projects demo and other with their documented keys", () => {
    expect(
      defaultDocuments()
        .map((d) => d.project.id)
        .sort(),
    ).toEqual(["demo", "other"]);
    expect(demo.api_keys.map((k) => [k.app_id, k.app_token])).toContainEqual([
      "demo-app-id",
      "demo-app-token",
    ]);
    expect(other.api_keys.map((k) => [k.app_id, k.app_token])).toContainEqual([
      "other-app-id",
      "other-app-token",
    ]);
  });

  it("holds the documented locations", () => {
    const shapes = Object.fromEntries(demo.locations.map((l) => [l.id, l.shape.type]));
    expect(shapes).toMatchObject({ loc_demo_circle: "circle", loc_demo_polygon: "polygon" });
  });

  it("holds camp_demo_loyalty with 1,000 active unpublished cards, some inactive and some published", () => {
    const campaign = demo.campaigns.find((c) => c.id === "camp_demo_loyalty");
    expect(campaign).toMatchObject({
      name: "Demo Loyalty Program",
      campaign_type: "LOYALTY_PROGRAM",
      join_once: true,
    });
    const cards = demo.vouchers.filter((v) => v.campaign_id === "camp_demo_loyalty");
    const now = Date.parse("2026-11-20T10:00:00.000Z");
    const usable = cards.filter(
      (v) =>
        v.active &&
        !v.holder_id &&
        (v.start_date === null || Date.parse(v.start_date) <= now) &&
        (v.expiration_date === null || Date.parse(v.expiration_date) > now),
    );
    expect(usable).toHaveLength(1000);
    expect(cards.filter((v) => !v.active).length).toBeGreaterThan(0);
    expect(cards.filter((v) => v.holder_id).length).toBeGreaterThan(0);
  });

  it("holds an on-demand loyalty campaign, a non-loyalty campaign and customers", () => {
    expect(
      demo.campaigns.some((c) => c.campaign_type === "LOYALTY_PROGRAM" && c.type === "AUTO_UPDATE"),
    ).toBe(true);
    expect(demo.campaigns.some((c) => c.campaign_type !== "LOYALTY_PROGRAM")).toBe(true);
    expect(demo.customers.length).toBeGreaterThanOrEqual(3);
  });

  it("holds the tier structure with two closed POINTS tiers far below 500,000,000, and seg_demo_vip", () => {
    const structure = demo.tier_structures.find((s) => s.id === "lts_d0000000000000001");
    expect(structure?.tiers).toHaveLength(2);
    for (const tier of structure?.tiers ?? []) {
      const rules = tier.qualification_rules;
      expect(rules.type).toBe("POINTS");
      expect(rules.type === "POINTS" && rules.max_value).toBeLessThan(500_000_000);
    }
    expect(demo.segments.map((s) => s.id)).toContain("seg_demo_vip");
  });

  it("holds the documented incentives, one of each type, and the earning rule that references one", () => {
    const ids = demo.incentives.map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining(["linc_d0000000000000001", "linc_d0000000000000002"]));
    expect(new Set(demo.incentives.map((i) => i.type))).toEqual(
      new Set(["POINTS", "POINTS_PROPORTIONAL", "MATERIAL", "DIGITAL"]),
    );
    const calculations = demo.incentives.flatMap((i) =>
      i.points_proportional ? [i.points_proportional.calculation_type] : [],
    );
    expect(new Set(calculations).size).toBe(7);
    const rule = demo.earning_rules.find((r) => r.id === "lern_d0000000000000001");
    expect(rule).toMatchObject({
      incentive_id: "linc_d0000000000000002",
      campaign_id: "camp_demo_loyalty",
      event: "user_subscribed",
      loyalty: { points: 100 },
    });
    expect(demo.earning_rules.some((r) => r.incentive_id === "linc_d0000000000000001")).toBe(false);
  });

  it("defines user_subscribed with a required string property plan", () => {
    const schema = demo.event_schemas.find((s) => s.name === "user_subscribed");
    expect(schema?.schema.properties.plan).toMatchObject({ type: "string", optional: false });
  });

  it("keeps the two projects apart: no id of demo appears in other", () => {
    const demoIds = new Set(
      JSON.stringify(demo).match(/"(?:loc|camp|v|cust|pub|seg|lts|lt|linc|lern|ms)_[A-Za-z0-9_]+"/g),
    );
    const otherIds =
      JSON.stringify(other).match(/"(?:loc|camp|v|cust|pub|seg|lts|lt|linc|lern|ms)_[A-Za-z0-9_]+"/g) ?? [];
    expect(otherIds.filter((id) => demoIds.has(id))).toEqual([]);
  });

  it("builds into a registry", () => {
    const registry = createRegistry({ clock: new ManualClock(), documents: defaultDocuments() });
    expect(registry.get("demo").vouchers.size).toBe(demo.vouchers.length);
  });
});

describe("a broken fixture stops the load with the file and the JSON path", () => {
  it("invalid JSON names the file and the line", () => {
    const { root, project } = copyOfOther();
    writeFileSync(join(project, "locations.json"), '[\n  {"id": "loc_x",\n  oops\n]');
    const error = loadError(root);
    expect(error.file).toMatch(/other\/locations\.json$/);
    expect(error.message).toMatch(/line 3 column \d+: not valid JSON/);
  });

  it("a field of the wrong type names the file and the path inside it", () => {
    const { root, project } = copyOfOther();
    edit(join(project, "vouchers.json"), (cards) => {
      cards[2].loyalty_card = { points: "many", balance: 0 };
    });
    const error = loadError(root);
    expect(error.file).toMatch(/other\/vouchers\.json$/);
    expect(error.jsonPath).toBe("$[2].loyalty_card.points");
    expect(error.message).toContain("should be number");
  });

  it("an unknown property points at itself", () => {
    const { root, project } = copyOfOther();
    edit(join(project, "locations.json"), (locations) => {
      locations[0].nmae = "typo";
    });
    const error = loadError(root);
    expect(error.jsonPath).toBe("$[0].nmae");
    expect(error.message).toContain("unknown property");
  });

  it("a reference to nothing names the referring field", () => {
    const { root, project } = copyOfOther();
    edit(join(project, "vouchers.json"), (cards) => {
      cards[0].campaign_id = "camp_missing";
    });
    const error = loadError(root);
    expect(error.file).toMatch(/other\/vouchers\.json$/);
    expect(error.jsonPath).toBe("$[0].campaign_id");
    expect(error.message).toContain("no campaign with id camp_missing");
  });

  it("a bad project.json field is reported in project.json", () => {
    const { root, project } = copyOfOther();
    edit(join(project, "project.json"), (doc) => {
      doc.id = "Not Valid";
    });
    const error = loadError(root);
    expect(error.file).toMatch(/other\/project\.json$/);
    expect(error.jsonPath).toBe("$.id");
  });

  it("an unknown file in a project folder is refused", () => {
    const { root, project } = copyOfOther();
    writeFileSync(join(project, "coupons.json"), "[]");
    expect(loadError(root).message).toMatch(/coupons\.json: \$: unknown fixture file/);
  });

  it("a missing project.json is refused", () => {
    const { root, project } = copyOfOther();
    rmSync(join(project, "project.json"));
    expect(loadError(root).message).toMatch(/project\.json: \$: missing file/);
  });

  it("a project folder without api-keys.json is refused; an empty list is a project without keys", () => {
    const { root, project } = copyOfOther();
    rmSync(join(project, "api-keys.json"));
    expect(loadError(root).message).toMatch(
      /other\/api-keys\.json: \$: missing file \(write \[\] for a project that has none on purpose\)$/,
    );
    writeFileSync(join(project, "api-keys.json"), "[]");
    expect(loadProjectDocuments(root)[0]?.api_keys).toEqual([]);
  });

  it("a folder without projects is refused", () => {
    const root = mkdtempSync(join(tmpdir(), "loyalty-mock-empty-"));
    temps.push(root);
    expect(loadError(root).message).toMatch(/no project found/);
  });

  it("a project may also be one whole document in a single .json file", () => {
    const root = mkdtempSync(join(tmpdir(), "loyalty-mock-single-"));
    temps.push(root);
    writeFileSync(
      join(root, "tiny.json"),
      JSON.stringify({
        project: { id: "tiny" },
        api_keys: [{ app_id: "tiny-id", app_token: "tiny-token" }],
        locations: [],
      }),
    );
    const [doc] = loadProjectDocuments(root);
    expect(doc?.project.id).toBe("tiny");
    writeFileSync(
      join(root, "tiny.json"),
      JSON.stringify({ project: { id: "tiny" }, locations: [{ id: 1 }] }),
    );
    const error = loadError(root);
    expect(error.file).toMatch(/tiny\.json$/);
    expect(error.jsonPath).toBe("$.locations[0].id");
  });
});
