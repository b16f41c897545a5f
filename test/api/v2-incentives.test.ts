import { beforeEach, describe, expect, it } from "vitest";
import { expectError, send } from "../helpers/http.js";
import { demoToken, expectRefusedUnchanged, v2Headers } from "../helpers/v2.js";
import { buildWorld, OTHER_KEYS, type World } from "../helpers/world.js";

/** DELETE /v2/loyalties/incentives/{id}, FIDELITY.md point by point, in the default (strict) auth mode. */

let world: World;
let headers: Record<string, string>;

beforeEach(async () => {
  world = buildWorld();
  headers = await v2Headers(world, "loyalties");
});

const remove = (id: string, extra: Partial<Parameters<typeof send>[1]> = {}) =>
  send(world.app, { method: "DELETE", path: `/v2/loyalties/incentives/${id}`, headers, ...extra });

const refuse = (id: string, status: number, expected: Record<string, unknown>) =>
  expectRefusedUnchanged(world, () => remove(id), status, expected);

const notFound = (id: string) => ({
  key: "not_found",
  message: "Resource not found",
  details: `Cannot find vl_incentive with id ${id}`,
  resource_id: id,
  resource_type: "vl_incentive",
});

describe("DELETE /v2/loyalties/incentives/{id} - success", () => {
  it("soft-deletes: 200 with the whole incentive, status DELETED and updated_at now; the store holds it so", async () => {
    world.demo.clock.advance(120);
    const before = structuredClone(world.demo.incentives.get("linc_d0000000000000001"));
    const res = await remove("linc_d0000000000000001");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, status: "DELETED", updated_at: "2026-11-20T10:02:00.000Z" });
    expect(world.demo.incentives.get("linc_d0000000000000001")).toEqual(res.body);
    expect(world.demo.incentives.has("linc_d0000000000000001")).toBe(true);
  });

  it("deleting one incentive leaves the others as they were", async () => {
    const others = structuredClone(
      world.demo.incentives.list().filter((incentive) => incentive.id !== "linc_d0000000000000101"),
    );
    expect((await remove("linc_d0000000000000101")).status).toBe(200);
    expect(
      world.demo.incentives.list().filter((incentive) => incentive.id !== "linc_d0000000000000101"),
    ).toEqual(others);
  });

  it("every type of incentive can be deleted, DRAFT ones too, and each answer validates against the contract", async () => {
    const ids = [
      "linc_d0000000000000003", // POINTS, DRAFT
      "linc_d0000000000000011", // each proportional calculation type
      "linc_d0000000000000012",
      "linc_d0000000000000013",
      "linc_d0000000000000014",
      "linc_d0000000000000015",
      "linc_d0000000000000016",
      "linc_d0000000000000017",
      "linc_d0000000000000021", // MATERIAL sku
      "linc_d0000000000000031", // DIGITAL discount coupons
      "linc_d0000000000000032", // DIGITAL gift vouchers
    ];
    const types = new Set<string>();
    for (const id of ids) {
      const res = await remove(id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, status: "DELETED", updated_at: "2026-11-20T10:00:00.000Z" });
      types.add(res.body.type);
    }
    expect(types).toEqual(new Set(["POINTS", "POINTS_PROPORTIONAL", "MATERIAL", "DIGITAL"]));
  });

  it("a deleted incentive is gone for the API: a second delete is 404 and changes nothing", async () => {
    expect((await remove("linc_d0000000000000102")).status).toBe(200);
    await refuse("linc_d0000000000000102", 404, notFound("linc_d0000000000000102"));
  });

  it("the incentive's own data (stock, created_at, detail object) is kept", async () => {
    const res = await remove("linc_d0000000000000021");
    expect(res.body).toMatchObject({
      stock: 250,
      created_at: "2025-11-08T10:00:00.000Z",
      material: { type: "SKU", sku: { product_id: "prod_d000000000000002", id: "sku_d000000000000001" } },
    });
  });
});

describe("DELETE /v2/loyalties/incentives/{id} - refusals", () => {
  it("an id not matching ^linc_[a-f0-9]+$ is 400 invalid_payload", async () => {
    for (const id of [
      "linc_D000",
      "linc_",
      "linc_xyz",
      "lern_d0000000000000001",
      "inc_d0000000000000001",
      "linc_abc%20",
    ]) {
      await refuse(id, 400, {
        key: "invalid_payload",
        message: "Invalid payload",
        details: 'Path parameter id should match pattern "^linc_[a-f0-9]+$"',
      });
    }
  });

  it("an unknown incentive is 404 vl_incentive", async () => {
    await refuse("linc_0123456789abcdef01", 404, notFound("linc_0123456789abcdef01"));
  });

  it("an incentive already DELETED in the fixtures is 404", async () => {
    await refuse("linc_d00000000000000de", 404, notFound("linc_d00000000000000de"));
  });

  it("an incentive of another project does not exist for the caller: 404, never 403", async () => {
    await refuse("linc_e0000000000000001", 404, notFound("linc_e0000000000000001"));
    const other = { ...OTHER_KEYS, Authorization: `Bearer ${await demoToken(world, "api", OTHER_KEYS)}` };
    await expectRefusedUnchanged(
      world,
      () => remove("linc_d0000000000000001", { headers: other }),
      404,
      notFound("linc_d0000000000000001"),
    );
  });

  it("an incentive an earning rule pays out is 409 resource_in_use with the rule's id", async () => {
    await refuse("linc_d0000000000000002", 409, {
      key: "resource_in_use",
      message: "Resource in use",
      details: "Incentive linc_d0000000000000002 is used by earning rule lern_d0000000000000001",
      resource_id: "linc_d0000000000000002",
      resource_type: "vl_incentive",
      related_object_ids: ["lern_d0000000000000001"],
      related_object_type: "earning_rule",
    });
    expect(world.demo.incentives.get("linc_d0000000000000002").status).toBe("ACTIVE");
  });

  it("lists every rule that references it, and frees it once none does", async () => {
    const rule = world.demo.earningRules.get("lern_d0000000000000002");
    world.demo.earningRules.put({ ...rule, incentive_id: "linc_d0000000000000002" });
    const res = await refuse("linc_d0000000000000002", 409, {
      details:
        "Incentive linc_d0000000000000002 is used by earning rules lern_d0000000000000001, lern_d0000000000000002",
    });
    expect(res.body.related_object_ids).toEqual(["lern_d0000000000000001", "lern_d0000000000000002"]);

    for (const id of ["lern_d0000000000000001", "lern_d0000000000000002"]) {
      const referencing = world.demo.earningRules.get(id);
      world.demo.earningRules.put({ ...referencing, incentive_id: null });
    }
    expect((await remove("linc_d0000000000000002")).body.status).toBe("DELETED");
  });

  it("an inactive earning rule still holds its incentive", async () => {
    const rule = world.demo.earningRules.get("lern_d0000000000000001");
    world.demo.earningRules.put({ ...rule, status: "INACTIVE" });
    await refuse("linc_d0000000000000002", 409, { key: "resource_in_use" });
  });

  it("checks the id's pattern before looking it up, and the reference before deleting", async () => {
    await refuse("LINC_D0000000000000002", 400, { key: "invalid_payload" });
    await refuse("linc_d0000000000000002", 409, { key: "resource_in_use" });
  });

  it("a body in another type than JSON is 415; a JSON body or a bare Content-Type header is ignored", async () => {
    await expectRefusedUnchanged(
      world,
      () =>
        remove("linc_d0000000000000103", {
          headers: { ...headers, "Content-Type": "text/plain" },
          body: "x",
        }),
      415,
      { key: "unsupported_media_type" },
    );
    const withJson = await remove("linc_d0000000000000103", { body: { reason: "retired" } });
    expect(withJson.status).toBe(200);
    const withHeader = await remove("linc_d0000000000000104", {
      headers: { ...headers, "Content-Type": "application/json" },
    });
    expect(withHeader.status).toBe(200);
  });

  it("a method neither we nor the beta serve on the path is 405 with an Allow header; the beta's GET is 501", async () => {
    const res = await remove("linc_d0000000000000001", { method: "PATCH" });
    expectError(res, 405, { message: "HTTP Method Not Allowed" });
    expect(res.headers.allow).toBe("DELETE");
    const get = await remove("linc_d0000000000000001", { method: "GET" });
    expectError(get, 501, {
      key: "not_emulated",
      details: "GET /v2/loyalties/incentives/{id} (getIncentive) is not emulated by loyalty-mock",
    });
    expect(world.demo.incentives.get("linc_d0000000000000001").status).toBe("ACTIVE");
  });
});
