import { describe, expect, it } from "vitest";
import { VIEWS } from "../../src/http/control/views.js";
import { control } from "../helpers/control.js";
import { expectError } from "../helpers/http.js";
import { buildWorld } from "../helpers/world.js";

type App = Parameters<typeof control>[0];

function view(app: App, path: string) {
  return control(app, { method: "GET", path: `/__mock/projects/demo/${path}` });
}

describe("read-only views of a project's data", () => {
  for (const { name } of VIEWS) {
    it(`GET .../${name} lists records in the service's shape, valid against the control OpenAPI`, async () => {
      const { app } = buildWorld();
      const res = await view(app, name);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: "list", data_ref: name.replaceAll("-", "_") });
    });
  }

  it("customers: all of them, one by id, filtered by a field", async () => {
    const { app } = buildWorld();
    const all = await view(app, "customers");
    expect(all.body.total).toBe(5);
    expect(all.body.customers.map((c: { id: string }) => c.id)).toContain("cust_demo_erin");
    const one = await view(app, "customers/cust_demo_bob");
    expect(one.body).toMatchObject({ id: "cust_demo_bob", object: "customer" });
    const filtered = await view(app, "customers?source_id=alice%40example.com");
    expect(filtered.body.customers.map((c: { id: string }) => c.id)).toEqual(["cust_demo_alice"]);
  });

  it("publications filtered by customer", async () => {
    const { app } = buildWorld();
    const res = await view(app, "publications?customer_id=cust_demo_alice");
    expect(res.body.publications.map((p: { id: string }) => p.id)).toEqual([
      "pub_demo_alice_loyalty",
      "pub_demo_alice_referral",
    ]);
  });

  it("vouchers: by code or id, filtered, paged with limit and offset (default 100)", async () => {
    const { app } = buildWorld();
    const byCode = await view(app, "vouchers/DEMO-HELD-2345");
    expect(byCode.body).toMatchObject({ id: "v_5AiF5A6ezrYeJTzejQcWIDr2", holder_id: "cust_demo_alice" });
    expect((await view(app, "vouchers/v_5AiF5A6ezrYeJTzejQcWIDr2")).body.code).toBe("DEMO-HELD-2345");
    const held = await view(app, "vouchers?campaign_id=camp_demo_loyalty&holder_id=cust_demo_bob");
    expect(held.body.vouchers.map((v: { code: string }) => v.code)).toEqual(["DEMO-HELD-3456"]);
    const page = await view(app, "vouchers?campaign_id=camp_demo_loyalty");
    expect(page.body.vouchers).toHaveLength(100);
    expect(page.body.total).toBeGreaterThan(1000);
    const next = await view(app, "vouchers?campaign_id=camp_demo_loyalty&limit=2&offset=1");
    expect(next.body.vouchers.map((v: { code: string }) => v.code)).toEqual([
      "DEMO-KE62-2DGD",
      "DEMO-4SRA-CU58",
    ]);
    const inactive = await view(app, "vouchers?active=false&limit=10000");
    expect(inactive.body.vouchers.every((v: { active: boolean }) => v.active === false)).toBe(true);
    expect(
      (await view(app, "vouchers?holder_id=null&limit=1")).body.vouchers[0].holder_id ?? null,
    ).toBeNull();
  });

  it("recorded events, tier structures, incentives and campaigns by name", async () => {
    const { app } = buildWorld();
    // The demo's few weeks of history (issue 45), each by its customer.
    expect((await view(app, "events")).body.total).toBe(15);
    expect((await view(app, "events?customer_id=cust_demo_alice")).body.total).toBe(5);
    expect((await view(app, "tier-structures/lts_d0000000000000002")).body.tiers).toHaveLength(10);
    expect(
      (await view(app, "incentives?status=DELETED")).body.incentives.map((i: { id: string }) => i.id),
    ).toEqual(["linc_d00000000000000de"]);
    expect((await view(app, "campaigns/Demo%20Loyalty%20Program")).body.id).toBe("camp_demo_loyalty");
  });

  const notFound = [
    { path: "customers/cust_nope", type: "customer" },
    { path: "vouchers/NOPE-CODE", type: "voucher" },
    { path: "tier-structures/lts_nope", type: "vl_tier_structure" },
    { path: "incentives/linc_00", type: "vl_incentive" },
  ];
  for (const { path, type } of notFound) {
    it(`GET .../${path} is 404 ${type}`, async () => {
      const { app } = buildWorld();
      expectError(await view(app, path), 404, { key: "not_found", resource_type: type });
    });
  }

  const bad = [
    { path: "customers?colour=red", details: "Query parameter colour is not allowed" },
    { path: "vouchers?limit=0", details: "Query parameter limit should be >= 1" },
    { path: "vouchers?limit=lots", details: "Query parameter limit should be number" },
    { path: "vouchers?offset=-1", details: "Query parameter offset should be >= 0" },
    { path: "customers?email=a&email=b", details: "Query parameter email should be string" },
  ];
  for (const { path, details } of bad) {
    it(`GET .../${path} is 400`, async () => {
      const { app } = buildWorld();
      expectError(await view(app, path), 400, { key: "invalid_payload", details });
    });
  }

  it("an unknown project is 404", async () => {
    const { app } = buildWorld();
    expectError(await control(app, { method: "GET", path: "/__mock/projects/nope/customers" }), 404, {
      resource_type: "project",
    });
  });
});
