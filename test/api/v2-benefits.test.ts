import { beforeEach, describe, expect, it } from "vitest";
import { expectError, send } from "../helpers/http.js";
import { demoToken, expectRefusedUnchanged, v2Headers } from "../helpers/v2.js";
import { buildWorld, DEMO_KEYS, OTHER_KEYS, type World } from "../helpers/world.js";

/**
 * DELETE /v2/loyalties/benefits/{benefitId}: the generally available Loyalty v2's deletion of an incentive
 * (docs/fidelity.md, "Loyalty v2 as generally available"). `lben_<hex>` and `linc_<hex>` name one record; every
 * answer, success and error, is validated against the GA file's schemas by send() (test/helpers/contract-ga.ts).
 */

let world: World;
let headers: Record<string, string>;

beforeEach(async () => {
  world = buildWorld();
  headers = await v2Headers(world, "loyalties");
});

const remove = (id: string, extra: Partial<Parameters<typeof send>[1]> = {}) =>
  send(world.app, { method: "DELETE", path: `/v2/loyalties/benefits/${id}`, headers, ...extra });
const removeIncentive = (id: string) =>
  send(world.app, { method: "DELETE", path: `/v2/loyalties/incentives/${id}`, headers });

const refuse = (id: string, status: number, expected: Record<string, unknown>) =>
  expectRefusedUnchanged(world, () => remove(id), status, expected);

const notFound = (id: string) => ({
  key: "not_found",
  message: "Resource not found",
  details: `Cannot find benefit with id ${id}`,
  resource_id: id,
  resource_type: "benefit",
});

describe("DELETE /v2/loyalties/benefits/{benefitId} - success", () => {
  it("deletes the incentive of the same hex and answers the GA Benefit", async () => {
    world.demo.clock.advance(120);
    const res = await remove("lben_d0000000000000001");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: "lben_d0000000000000001",
      name: "Free tote bag",
      type: "MATERIAL",
      status: "DELETED",
      stock: { type: "LIMITED", limited: { quantity: 500 } },
      material: { type: "PRODUCT", product: { id: "prod_d000000000000001" } },
      created_at: "2025-11-08T10:00:00.000Z",
      updated_at: "2026-11-20T10:02:00.000Z",
      object: "benefit",
    });
    expect(world.demo.incentives.get("linc_d0000000000000001")).toMatchObject({
      status: "DELETED",
      updated_at: "2026-11-20T10:02:00.000Z",
      object: "incentive",
    });
  });

  it("one record for both paths: deleted as a benefit, the incentive is 404; and the other way round", async () => {
    expect((await remove("lben_d0000000000000101")).status).toBe(200);
    const incentive = await removeIncentive("linc_d0000000000000101");
    expectError(incentive, 404, { resource_type: "vl_incentive", resource_id: "linc_d0000000000000101" });
    expect((await removeIncentive("linc_d0000000000000102")).status).toBe(200);
    await refuse("lben_d0000000000000102", 404, notFound("lben_d0000000000000102"));
  });

  it("every type of benefit, DRAFT ones too, answers the GA Benefit (validated against the GA file)", async () => {
    const types = new Set<string>();
    for (const hex of ["003", "011", "012", "013", "014", "015", "016", "017", "021", "031", "032"]) {
      const res = await remove(`lben_d0000000000000${hex}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: `lben_d0000000000000${hex}`,
        object: "benefit",
        status: "DELETED",
      });
      expect(res.body.stock.type).toBe("LIMITED");
      types.add(res.body.type);
    }
    expect(types).toEqual(new Set(["POINTS", "POINTS_PROPORTIONAL", "MATERIAL", "DIGITAL"]));
  });
});

describe("DELETE /v2/loyalties/benefits/{benefitId} - refusals", () => {
  it("an id not matching ^lben_[a-f0-9]+$ is 400 invalid_payload, an incentive's id among them", async () => {
    for (const id of ["linc_d0000000000000001", "lben_D000", "lben_", "lben_xyz", "benefit_1"])
      await refuse(id, 400, {
        key: "invalid_payload",
        message: "Invalid payload",
        details: 'Path parameter benefitId should match pattern "^lben_[a-f0-9]+$"',
      });
  });

  it("an unknown benefit, one DELETED in the fixtures, or another project's is 404 naming the benefit", async () => {
    for (const id of ["lben_0123456789abcdef01", "lben_d00000000000000de", "lben_e0000000000000001"])
      await refuse(id, 404, notFound(id));
    const other = { ...OTHER_KEYS, Authorization: `Bearer ${await demoToken(world, "api", OTHER_KEYS)}` };
    await expectRefusedUnchanged(
      world,
      () => remove("lben_d0000000000000001", { headers: other }),
      404,
      notFound("lben_d0000000000000001"),
    );
  });

  it("one an earning rule uses is 400 resource_in_use with the rules, as the GA file says (the beta's path: 409)", async () => {
    await refuse("lben_d0000000000000002", 400, {
      key: "resource_in_use",
      message: "Resource in use",
      details: "Benefit lben_d0000000000000002 is used by earning rule lern_d0000000000000001",
      resource_id: "lben_d0000000000000002",
      resource_type: "benefit",
      related_object_ids: ["lern_d0000000000000001"],
      related_object_type: "earning_rule",
    });
    expect((await removeIncentive("linc_d0000000000000002")).status).toBe(409);
  });

  it("another method on the path is the GA operation's 501 (or 405 where the GA file has none)", async () => {
    const get = await remove("lben_d0000000000000001", { method: "GET" });
    expectError(get, 501, {
      key: "not_emulated",
      details: "GET /v2/loyalties/benefits/{benefitId} (getBenefit) is not emulated by loyalty-mock",
    });
    const patch = await remove("lben_d0000000000000001", { method: "PATCH" });
    expectError(patch, 405, { message: "HTTP Method Not Allowed" });
    expect(patch.headers.allow).toBe("DELETE");
    expect(world.demo.incentives.get("linc_d0000000000000001").status).toBe("ACTIVE");
  });
});

describe("DELETE /v2/loyalties/benefits/{benefitId} - credentials", () => {
  it("strict (the default): the key pair alone or the token alone is 401", async () => {
    const token = await demoToken(world);
    for (const h of [DEMO_KEYS, { Authorization: `Bearer ${token}` }])
      await expectRefusedUnchanged(world, () => remove("lben_d0000000000000001", { headers: h }), 401, {
        key: "unauthorized",
      });
  });

  it("either (LOYALTY_MOCK_V2_AUTH_MODE=either): the key pair alone and the token alone are each enough", async () => {
    const relaxed = buildWorld({ defaults: { v2AuthMode: "either" } });
    const token = await demoToken(relaxed);
    const call = (id: string, h: Record<string, string>) =>
      send(relaxed.app, { method: "DELETE", path: `/v2/loyalties/benefits/${id}`, headers: h });
    expect((await call("lben_d0000000000000001", { ...DEMO_KEYS })).status).toBe(200);
    expect((await call("lben_d0000000000000101", { Authorization: `Bearer ${token}` })).status).toBe(200);
  });
});
