import { describe, expect, it } from "vitest";
import { gaContract, isGaRequest, validateGaResponse } from "./contract-ga.js";
import { needsContract } from "./contract-skips.js";

const TIERS = "/v2/loyalties/tier-structures/{tierStructureId}/tiers";
const BENEFIT = "/v2/loyalties/benefits/{benefitId}";

const gaTier = {
  id: "lt_0123456789abcdef01",
  tier_structure_id: "lts_d0000000000000001",
  name: "Gold",
  qualification_rules: { type: "POINTS_AND_SEGMENT", points: { min_value: 5000 }, segment: { id: "seg_1" } },
  downgrade: { type: "INHERIT" },
  metadata: {},
  created_at: "2026-11-20T10:00:00.000Z",
  updated_at: null,
  object: "tier",
};
const benefit = {
  id: "lben_d0000000000000001",
  name: "Tote bag",
  type: "MATERIAL",
  status: "DELETED",
  stock: { type: "LIMITED", limited: { quantity: 3 } },
  material: { type: "PRODUCT", product: { id: "prod_d1" } },
  created_at: "2025-11-02T08:00:00.000Z",
  updated_at: "2026-11-20T10:00:00.000Z",
  object: "benefit",
};

describe(
  "the generally available Loyalty v2's contract, as the recipe builds it",
  needsContract("loyaltyV2Ga"),
  () => {
    it("holds the two emulated operations, each under its template's parameter name", () => {
      expect(Object.keys(gaContract?.paths ?? {})).toEqual([TIERS, BENEFIT]);
      const parameters = (template: string, method: string) => {
        const item = (gaContract?.paths[template] ?? {}) as Record<
          string,
          { parameters?: { name: string }[] }
        >;
        return (item[method]?.parameters ?? []).map((p) => p.name);
      };
      expect(parameters(TIERS, "post")).toEqual(["tierStructureId"]);
      expect(parameters(BENEFIT, "delete")).toEqual(["benefitId"]);
    });

    it("records every conversion, the vendor's parameter-name defect among them", () => {
      const conversions = gaContract?.info["x-conversions"] ?? [];
      expect(conversions).toContain(
        `POST ${TIERS}: path parameter "id" renamed "tierStructureId", the name its path template gives it (the vendor's file declares "id").`,
      );
      expect(conversions).toContain(
        `DELETE ${BENEFIT}: path parameter "id" renamed "benefitId", the name its path template gives it (the vendor's file declares "id").`,
      );
      expect(conversions.some((line) => line.startsWith("Root security"))).toBe(true);
    });

    it("accepts a GA tier and a benefit; refuses the beta's shapes, which the GA form must never answer", () => {
      expect(() => validateGaResponse("POST", TIERS, 200, gaTier)).not.toThrow();
      expect(() => validateGaResponse("DELETE", BENEFIT, 200, benefit)).not.toThrow();
      const segmentTier = { ...gaTier, qualification_rules: { type: "SEGMENT", segment: { id: "seg_1" } } };
      expect(() => validateGaResponse("POST", TIERS, 200, segmentTier)).toThrow(/qualification_rules\/type/);
      const incentive = { ...benefit, id: "linc_d0000000000000001", stock: 3, object: "incentive" };
      expect(() => validateGaResponse("DELETE", BENEFIT, 200, incentive)).toThrow(/\/id|\/stock|\/object/);
    });

    it("holds an error to its ErrorResponse, listed or not (403 and 401 are not listed)", () => {
      const error = {
        code: 403,
        key: "tier_range_overlap",
        message: "Tier range overlap",
        request_id: "v-1",
      };
      expect(() => validateGaResponse("POST", TIERS, 403, error)).not.toThrow();
      expect(() => validateGaResponse("POST", TIERS, 401, { ...error, code: "401" })).toThrow(/code/);
    });
  },
);

describe("which requests are the generally available version's (docs/fidelity.md)", () => {
  const tiers = "/v2/loyalties/tier-structures/lts_1/tiers";
  it("a benefit's path; a tier body with points or POINTS_AND_SEGMENT and no flat range", () => {
    expect(isGaRequest("DELETE", "/v2/loyalties/benefits/lben_1")).toBe(true);
    expect(isGaRequest("GET", "/v2/loyalties/benefits")).toBe(true);
    expect(isGaRequest("POST", tiers, { qualification_rules: { type: "POINTS", points: {} } })).toBe(true);
    expect(isGaRequest("POST", tiers, '{"qualification_rules":{"type":"POINTS_AND_SEGMENT"}}')).toBe(true);
  });

  it("not the beta's bodies, nor a body that mixes the forms, nor another route", () => {
    expect(isGaRequest("POST", tiers, { qualification_rules: { type: "POINTS", min_value: 1 } })).toBe(false);
    expect(
      isGaRequest("POST", tiers, { qualification_rules: { type: "POINTS", min_value: 1, points: {} } }),
    ).toBe(false);
    expect(isGaRequest("POST", tiers, "not json")).toBe(false);
    expect(isGaRequest("DELETE", "/v2/loyalties/incentives/linc_1")).toBe(false);
    expect(isGaRequest("GET", tiers, { qualification_rules: { points: {} } })).toBe(false);
  });
});
