import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import { DEFAULT_FIXTURES_DIR, FixtureError } from "../../src/platform/fixtures.js";
import { validateResponse } from "../helpers/contract.js";
import { needsContract } from "../helpers/contract-skips.js";
import { buildWorld } from "../helpers/world.js";

/**
 * The Loyalty v2 fixtures (incentives, tier structures and their tiers): in the spec's and the contract's shape,
 * and checked on load like every fixture, so a broken one stops the start with its file and JSON path.
 */

const INCENTIVE = "/v2/loyalties/incentives/{id}";
const TIERS = "/v2/loyalties/tier-structures/{id}/tiers";

describe("the default v2 dataset", () => {
  const world = buildWorld();
  const projects = [world.demo, world.other];

  it("every incentive is a valid IncentiveDTO of the contract", needsContract("sixOperations"), () => {
    for (const project of projects)
      for (const incentive of project.incentives.list())
        validateResponse("DELETE", INCENTIVE, 200, incentive);
  });

  it("every tier, with its tier_structure_id, is a valid Tier of the contract", () => {
    for (const project of projects)
      for (const structure of project.tierStructures.list())
        for (const tier of structure.tiers) {
          expect(tier.tier_structure_id).toBe(structure.id);
          validateResponse("POST", TIERS, 200, tier);
        }
  });

  it("holds every incentive type, each proportional calculation type and each material and digital kind", () => {
    const incentives = world.demo.incentives.list();
    const kinds = new Set(
      incentives.map((i) =>
        [i.type, i.points_proportional?.calculation_type, i.material?.type, i.digital?.type]
          .filter(Boolean)
          .join(" "),
      ),
    );
    expect([...kinds].sort()).toEqual([
      "DIGITAL DISCOUNT_COUPONS",
      "DIGITAL GIFT_VOUCHERS",
      "MATERIAL PRODUCT",
      "MATERIAL SKU",
      "POINTS",
      "POINTS_PROPORTIONAL CUSTOMER_METADATA_VALUE",
      "POINTS_PROPORTIONAL ORDER_ITEMS_QUANTITY",
      "POINTS_PROPORTIONAL ORDER_METADATA_VALUE",
      "POINTS_PROPORTIONAL POST_DISCOUNT_ORDER_AMOUNT",
      "POINTS_PROPORTIONAL POST_DISCOUNT_ORDER_ITEMS_AMOUNT",
      "POINTS_PROPORTIONAL PRE_DISCOUNT_ORDER_AMOUNT",
      "POINTS_PROPORTIONAL PRE_DISCOUNT_ORDER_ITEMS_AMOUNT",
    ]);
    expect(new Set(incentives.map((i) => i.status))).toEqual(new Set(["ACTIVE", "DRAFT", "DELETED"]));
  });

  it("holds the documented tier structures", () => {
    const names = (id: string) => world.demo.tierStructures.get(id).tiers.map((tier) => tier.name);
    expect(names("lts_d0000000000000001")).toEqual(["Bronze", "Silver"]);
    expect(names("lts_d0000000000000002")).toHaveLength(10);
    expect(world.demo.tierStructures.get("lts_d0000000000000003").tiers[0]?.qualification_rules).toEqual({
      type: "SEGMENT",
      segment: { id: "seg_demo_vip" },
    });
    expect(world.demo.tierStructures.get("lts_d0000000000000004").tiers[1]?.qualification_rules).toEqual({
      type: "POINTS",
      min_value: 1000,
    });
  });

  it("the deletable incentives 101..110 are not referenced by any earning rule", () => {
    const referenced = new Set(world.demo.earningRules.list().map((rule) => rule.incentive_id));
    const deletable = world.demo.incentives
      .list()
      .filter((i) => /^linc_d0000000000000(1[0-9a-f]{2})$/.test(i.id));
    expect(deletable).toHaveLength(16);
    for (const incentive of deletable) {
      expect(incentive.status).toBe("ACTIVE");
      expect(referenced.has(incentive.id)).toBe(false);
    }
  });
});

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: tests edit fixture JSON freely to break it
type Edit = (data: any) => void;

function loadBroken(file: string, change: Edit): FixtureError {
  const root = mkdtempSync(join(tmpdir(), "loyalty-mock-v2-"));
  temps.push(root);
  cpSync(join(DEFAULT_FIXTURES_DIR, "demo"), join(root, "demo"), { recursive: true });
  const path = join(root, "demo", file);
  const data = JSON.parse(readFileSync(path, "utf8"));
  change(data);
  writeFileSync(path, JSON.stringify(data, null, 2));
  try {
    loadProjectDocuments(root);
  } catch (error) {
    if (error instanceof FixtureError) return error;
    throw error;
  }
  throw new Error("the fixtures loaded, but should not have");
}

describe("a broken v2 fixture stops the load with the file and the JSON path", () => {
  const cases: [string, string, Edit, string, string][] = [
    [
      "a SEGMENT tier with a min_value",
      "tier-structures.json",
      (d) => {
        d[2].tiers[0].qualification_rules.min_value = 0;
      },
      "$[2].tiers[0].qualification_rules.min_value",
      "not allowed when type is SEGMENT",
    ],
    [
      "a POINTS tier with max_value below min_value",
      "tier-structures.json",
      (d) => {
        d[0].tiers[1].qualification_rules.max_value = 10;
      },
      "$[0].tiers[1].qualification_rules.max_value",
      ">= min_value (1000)",
    ],
    [
      "a POINTS tier with max_value but no min_value",
      "tier-structures.json",
      (d) => {
        delete d[0].tiers[1].qualification_rules.min_value;
      },
      "$[0].tiers[1].qualification_rules.max_value",
      "not allowed without min_value",
    ],
    [
      "overlapping tiers",
      "tier-structures.json",
      (d) => {
        d[0].tiers[1].qualification_rules.min_value = 999;
      },
      "$[0].tiers[1].qualification_rules",
      "overlaps the range of tier 0",
    ],
    [
      "a tier naming an unknown segment",
      "tier-structures.json",
      (d) => {
        d[2].tiers[0].qualification_rules.segment.id = "seg_missing";
      },
      "$[2].tiers[0].qualification_rules.segment.id",
      "no segment with id seg_missing",
    ],
    [
      "an eleventh tier",
      "tier-structures.json",
      (d) => {
        d[1].tiers.push({
          ...d[1].tiers[0],
          id: "lt_d00000000000001ff",
          qualification_rules: { type: "POINTS", min_value: 20000 },
        });
      },
      "$[1].tiers",
      "more than 10 items",
    ],
    [
      "a tier id outside lt_ + hex",
      "tier-structures.json",
      (d) => {
        d[0].tiers[0].id = "lt_Bronze";
      },
      "$[0].tiers[0].id",
      "pattern",
    ],
    [
      "a card definition id outside lcdef_ + hex",
      "incentives.json",
      (d) => {
        d[1].points.card_definition_id = "card_1";
      },
      "$[1].points.card_definition_id",
      "pattern",
    ],
    [
      "a product id outside prod_ + hex",
      "incentives.json",
      (d) => {
        d[0].material.product.id = "tote-bag";
      },
      "$[0].material.product.id",
      "pattern",
    ],
    [
      "a material of type PRODUCT holding a sku",
      "incentives.json",
      (d) => {
        d[0].material = { type: "PRODUCT", sku: { product_id: "prod_d1", id: "sku_d1" } };
      },
      "$[0].material.product",
      "required when type is PRODUCT",
    ],
    [
      "a digital incentive of type GIFT_VOUCHERS holding coupons",
      "incentives.json",
      (d) => {
        d[11].digital.type = "GIFT_VOUCHERS";
      },
      "$[11].digital.gift_vouchers",
      "required when type is GIFT_VOUCHERS",
    ],
    [
      "a proportional incentive without its calculation's sub-object",
      "incentives.json",
      (d) => {
        d[3].points_proportional.calculation_type = "ORDER_ITEMS_QUANTITY";
      },
      "$[3].points_proportional.order_items.quantity",
      "required when calculation_type is ORDER_ITEMS_QUANTITY",
    ],
    [
      "a proportional incentive with a second calculation's sub-object",
      "incentives.json",
      (d) => {
        d[3].points_proportional.customer = { metadata: { every: 1, value: 1, property: "visits" } };
      },
      "$[3].points_proportional.customer.metadata",
      "not allowed when calculation_type is PRE_DISCOUNT_ORDER_AMOUNT",
    ],
    [
      "an applicable_to entry without the object its type names",
      "incentives.json",
      (d) => {
        d[7].points_proportional.order_items.amount.applicable_to[0].type = "sku";
      },
      "$[7].points_proportional.order_items.amount.applicable_to[0].sku",
      "required when type is sku",
    ],
    [
      "an incentive whose type names a detail object it lacks",
      "incentives.json",
      (d) => {
        d[1].type = "MATERIAL";
      },
      "$[1].material",
      "required when type is MATERIAL",
    ],
    [
      "an incentive with a second detail object",
      "incentives.json",
      (d) => {
        d[1].digital = { type: "DISCOUNT_COUPONS", discount_coupons: { campaign_id: "camp_demo_discounts" } };
      },
      "$[1].digital",
      "not allowed when type is POINTS",
    ],
    [
      "a stock above 2147483647",
      "incentives.json",
      (d) => {
        d[0].stock = 2_147_483_648;
      },
      "$[0].stock",
      "",
    ],
    [
      "an incentive id outside linc_ + hex",
      "incentives.json",
      (d) => {
        d[0].id = "linc_Tote";
      },
      "$[0].id",
      "pattern",
    ],
    [
      "an earning rule naming an unknown incentive",
      "earning-rules.json",
      (d) => {
        d[0].incentive_id = "linc_ffff";
      },
      "$[0].incentive_id",
      "no incentive with id linc_ffff",
    ],
  ];
  for (const [name, file, change, jsonPath, message] of cases) {
    it(`${name}: ${file} ${jsonPath}`, () => {
      const error = loadBroken(file, change);
      expect(error.file).toMatch(new RegExp(`demo/${file.replace(".", "\\.")}$`));
      expect(error.jsonPath).toBe(jsonPath);
      expect(error.message).toContain(message);
    });
  }
});
