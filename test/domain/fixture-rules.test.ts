import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/errors.js";
import { incentiveSchema } from "../../src/domain/incentives/incentive.js";
import { locationSchema } from "../../src/domain/locations/location.js";
import { parseProjectDocument } from "../../src/domain/projects/state-import.js";
import { int64, olderInt64 } from "../../src/domain/shared/int64.js";
import { metadata } from "../../src/domain/shared/schema-parts.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * Rules of the fixture format that only a fixture (or an imported state) can break, checked on the schemas
 * themselves: what a mutation run (docs/internals/testing.md, "Mutation testing") found no test to fail on.
 */

const issues = (result: { error?: { issues: unknown[] } }) => result.error?.issues;

describe("an incentive's detail objects", () => {
  const material = {
    id: "linc_d0000000000000001",
    name: "Free tote bag",
    type: "MATERIAL",
    status: "ACTIVE",
    stock: 500,
    material: { type: "PRODUCT", product: { id: "prod_d000000000000001" } },
    created_at: "2025-11-08T10:00:00.000Z",
  };

  it("the ones the type does not choose may be null, as absent", () => {
    const withNulls = { ...material, material: { ...material.material, sku: null } };
    expect(incentiveSchema.safeParse(withNulls).success).toBe(true);
  });

  it("one the type does not choose may not be given", () => {
    const withSku = {
      ...material,
      material: {
        ...material.material,
        sku: { product_id: "prod_d000000000000001", id: "sku_d000000000000001" },
      },
    };
    expect(issues(incentiveSchema.safeParse(withSku))).toEqual([
      { code: "custom", path: ["material", "sku"], message: "is not allowed when type is PRODUCT" },
    ]);
  });
});

describe("a location's polygon", () => {
  const polygon = (ring: number[][]) => ({
    id: "loc_x",
    object: "location",
    name: "X",
    shape: { type: "polygon", format: "geojson", geojson: { type: "Polygon", coordinates: [ring] } },
    created_at: "2025-11-02T08:10:00.000Z",
  });
  const square = [
    [13.3, 52.5],
    [13.4, 52.5],
    [13.4, 52.6],
    [13.3, 52.6],
  ];

  it("is a ring that ends where it starts", () => {
    expect(locationSchema.safeParse(polygon([...square, [13.3, 52.5]])).success).toBe(true);
    expect(issues(locationSchema.safeParse(polygon([...square, [13.3, 52.51]])))).toEqual([
      {
        code: "custom",
        path: ["shape", "geojson", "coordinates", 0],
        message: "a linear ring must end where it starts",
      },
    ]);
  });
});

describe("a tier structure's tiers", () => {
  const tier = (extra: object) => ({
    id: "lt_e0000000000000001",
    name: "Member",
    qualification_rules: { type: "POINTS", min_value: 0, max_value: 999 },
    created_at: "2025-11-10T10:00:00.000Z",
    ...extra,
  });
  const document = (extra: object) => ({
    project: { id: "tiers" },
    tier_structures: [
      {
        id: "lts_e0000000000000001",
        name: "Tiers",
        created_at: "2025-11-10T10:00:00.000Z",
        tiers: [tier(extra)],
      },
    ],
  });

  /** The details of the refusal of a document, or undefined when it is taken. */
  const refusal = (input: object) => {
    try {
      parseProjectDocument(input);
    } catch (error) {
      if (error instanceof ApiError) return error.details;
      throw error;
    }
    return undefined;
  };

  it("name the structure that holds them, when they name one", () => {
    expect(refusal(document({ tier_structure_id: "lts_e0000000000000001" }))).toBeUndefined();
    expect(refusal(document({}))).toBeUndefined();
    expect(refusal(document({ tier_structure_id: "lts_e0000000000000002" }))).toBe(
      "$.tier_structures[0].tiers[0].tier_structure_id: must be lts_e0000000000000001, the structure that holds the tier",
    );
  });
});

describe("metadata", () => {
  it("is a JSON object: not null, an array, a string or a number", () => {
    expect([{}, { a: 1 }, null, [], "x", 1].map((value) => metadata.safeParse(value).success)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("64-bit integers", () => {
  const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
  const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

  it("are a number up to 2^53 either way, whatever form they came in, and a bigint past it", () => {
    const wide = int64(-(2 ** 62));
    expect([5n, MAX_SAFE, MIN_SAFE, MAX_SAFE + 1n, MIN_SAFE - 1n].map((value) => wide.parse(value))).toEqual([
      5,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
      MAX_SAFE + 1n,
      MIN_SAFE - 1n,
    ]);
    expect(wide.parse(2 ** 60)).toBe(2n ** 60n);
  });

  it("2^63 in a state file an earlier version wrote, read exactly or as a double, is the int64 maximum", () => {
    const max = 2n ** 63n - 1n;
    expect([
      olderInt64(9223372036854776000n),
      olderInt64(2 ** 63),
      olderInt64(2 ** 62),
      olderInt64(7),
    ]).toEqual([max, max, 2 ** 62, 7]);
  });
});

describe("a reference by a name rather than by id", () => {
  it("is refused naming the collection the name is missing from", () => {
    const [demo] = defaultDocuments();
    const input = structuredClone(demo) as unknown as { earning_rules: { event?: string }[] };
    const rule = input.earning_rules.findIndex((r) => r.event === "user_subscribed");
    (input.earning_rules[rule] as { event: string }).event = "no_such_event";
    let details: unknown;
    try {
      parseProjectDocument(input);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      details = error.details;
    }
    expect(details).toBe(
      `$.earning_rules[${rule}].event: no custom event named no_such_event in event_schemas`,
    );
  });
});
