import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/errors.js";
import {
  benefitIdOf,
  benefitView,
  deleteBenefit,
  incentiveIdOf,
} from "../../src/domain/incentives/benefit.js";
import { deleteIncentive } from "../../src/domain/incentives/delete-incentive.js";
import { buildWorld } from "../helpers/world.js";

/**
 * A benefit is the generally available name of an incentive (docs/fidelity.md, "Loyalty v2 as generally
 * available"): the same hex under `lben_` and `linc_` names one record, and either path's deletion is one change.
 */

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("benefit ids", () => {
  it("lben_<hex> and linc_<hex> name one record, both ways", () => {
    expect(incentiveIdOf("lben_d0000000000000001")).toBe("linc_d0000000000000001");
    expect(benefitIdOf("linc_d0000000000000001")).toBe("lben_d0000000000000001");
    expect(incentiveIdOf("linc_d0000000000000001")).toBeUndefined();
  });
});

describe("benefitView", () => {
  it("writes an incentive as the GA file's Benefit: its lben_ id, its stock as LIMITED, object benefit", () => {
    const { demo } = buildWorld();
    expect(benefitView(demo.incentives.get("linc_d0000000000000021"))).toEqual({
      id: "lben_d0000000000000021",
      name: "Blue coffee mug",
      type: "MATERIAL",
      status: "ACTIVE",
      stock: { type: "LIMITED", limited: { quantity: 250 } },
      material: { type: "SKU", sku: { product_id: "prod_d000000000000002", id: "sku_d000000000000001" } },
      created_at: "2025-11-08T10:00:00.000Z",
      updated_at: null,
      object: "benefit",
    });
  });
});

describe("deleteBenefit", () => {
  it("soft-deletes the incentive of the same hex; the beta's path then finds nothing", () => {
    const { demo, clock } = buildWorld();
    clock.advance(60);
    const deleted = deleteBenefit(demo, "lben_d0000000000000001");
    expect(deleted).toMatchObject({ id: "lben_d0000000000000001", status: "DELETED", object: "benefit" });
    expect(deleted.updated_at).toBe("2026-11-20T10:01:00.000Z");
    expect(demo.incentives.get("linc_d0000000000000001").status).toBe("DELETED");
    expect(refusal(() => deleteIncentive(demo, "linc_d0000000000000001"))).toMatchObject({
      status: 404,
      resourceType: "vl_incentive",
    });
  });

  it("a deleted or unknown one is 404 naming the benefit", () => {
    const { demo } = buildWorld();
    deleteIncentive(demo, "linc_d0000000000000001");
    for (const id of [
      "lben_d0000000000000001",
      "lben_d00000000000000de",
      "lben_ffff",
      "linc_d0000000000000003",
    ])
      expect(refusal(() => deleteBenefit(demo, id))).toMatchObject({
        status: 404,
        key: "not_found",
        details: `Cannot find benefit with id ${id}`,
        resourceId: id,
        resourceType: "benefit",
      });
  });

  it("one an earning rule uses is 400 resource_in_use (the beta's path keeps its 409)", () => {
    const { demo } = buildWorld();
    const ga = refusal(() => deleteBenefit(demo, "lben_d0000000000000002"));
    expect(ga).toMatchObject({
      status: 400,
      key: "resource_in_use",
      message: "Resource in use",
      details: "Benefit lben_d0000000000000002 is used by earning rule lern_d0000000000000001",
      resourceId: "lben_d0000000000000002",
      resourceType: "benefit",
      extra: { related_object_ids: ["lern_d0000000000000001"], related_object_type: "earning_rule" },
    });
    expect(refusal(() => deleteIncentive(demo, "linc_d0000000000000002")).status).toBe(409);
    expect(demo.incentives.get("linc_d0000000000000002").status).toBe("ACTIVE");
  });
});
