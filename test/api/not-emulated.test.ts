import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/http/operations/table.js";
import { needsContract } from "../helpers/contract-skips.js";
import { expectError, send } from "../helpers/http.js";
import { concrete } from "../helpers/not-emulated.js";
import { loadVendorOperations } from "../helpers/vendor-operations.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 15, FIDELITY.md "Unknown route": every operation of the real service (the vendor's list, read at test time)
 * that we do not emulate is 501 not_emulated naming it; the ones we emulate never are; a path the real service
 * does not have stays 404.
 */
const vendorList = needsContract("vendorOperations");
const VENDOR = vendorList.skip ? [] : loadVendorOperations();
const emulated = (method: string, path: string) =>
  OPERATIONS.some((row) => row.method === method && row.path === path);

describe("operations of the real service we do not emulate", () => {
  it(
    "the vendor's list is the one the table was written from, with our v1 operations in it",
    vendorList,
    () => {
      expect(VENDOR.length).toBe(244);
      const v1 = OPERATIONS.filter((row) => row.path.startsWith("/v1/"));
      for (const row of v1)
        expect(VENDOR.some((op) => op.method === row.method && op.path === row.path)).toBe(true);
    },
  );

  it(
    "every one we do not emulate is 501 not_emulated, naming it; every one we emulate is answered by it",
    vendorList,
    async () => {
      const { app } = buildWorld();
      let answered = 0;
      for (const op of VENDOR) {
        const res = await send(app, {
          method: op.method as "GET",
          path: concrete(op.path),
          headers: DEMO_KEYS,
          ...(op.method === "POST" || op.method === "PUT" ? { body: {} } : {}),
        });
        const what = `${op.method} ${op.path}`;
        if (emulated(op.method, op.path)) {
          // The operation itself answers: a refusal of its own (a 404 names the record), never the route's.
          answered += 1;
          expect([405, 501], what).not.toContain(res.status);
          if (res.status === 404) expect(res.body.resource_type, what).toBeDefined();
          continue;
        }
        expect(res.status, what).toBe(501);
        expect(res.body.key, what).toBe("not_emulated");
        expect(res.body.message, what).toBe("Not emulated");
        expect(res.body.details, what).toContain(`${op.method} ${op.path} (${op.operationId})`);
        expect(res.body.details, what).toMatch(/ is not emulated by loyalty-mock$/);
      }
      expect(answered).toBe(4);
    },
  );

  it("a not-emulated GET and a real 404 side by side", async () => {
    const { app } = buildWorld();
    const customer = await send(app, {
      method: "GET",
      path: "/v1/customers/cust_demo_alice",
      headers: DEMO_KEYS,
    });
    expectError(customer, 501, {
      key: "not_emulated",
      message: "Not emulated",
      details: "GET /v1/customers/{customerId} (get-customer) is not emulated by loyalty-mock",
    });
    const members = await send(app, {
      method: "GET",
      path: "/v1/loyalties/camp_demo_loyalty/members",
      headers: DEMO_KEYS,
    });
    expectError(members, 501, {
      details: "GET /v1/loyalties/{campaignId}/members (list-members) is not emulated by loyalty-mock",
    });
    // The publish.url inside our own cards.
    const publications = await send(app, {
      method: "GET",
      path: "/v1/vouchers/DEMO-HELD-2345/publications?page=1&limit=10",
      headers: DEMO_KEYS,
    });
    expectError(publications, 501, {
      details:
        "GET /v1/vouchers/{code}/publications (a voucher's publish.url) is not emulated by loyalty-mock",
    });
    const unknownPath = await send(app, {
      method: "GET",
      path: "/v1/customerz/cust_demo_alice",
      headers: DEMO_KEYS,
    });
    expectError(unknownPath, 404, {
      key: "not_found",
      details: "Cannot GET /v1/customerz/cust_demo_alice: no such endpoint",
    });
    const unknownRecord = await send(app, {
      method: "GET",
      path: "/v1/locations/loc_nope",
      headers: DEMO_KEYS,
    });
    expectError(unknownRecord, 404, { key: "not_found", resource_type: "location", resource_id: "loc_nope" });
  });

  it("is the route's answer, with or without credentials, before authentication", async () => {
    const { app } = buildWorld();
    const res = await send(app, { method: "DELETE", path: "/v1/customers/cust_demo_alice" });
    expectError(res, 501, {
      details: "DELETE /v1/customers/{customerId} (delete-customer) is not emulated by loyalty-mock",
    });
  });

  it("the reference's look-alikes: the most specific template wins, equals are named together", async () => {
    const { app } = buildWorld();
    const imported = await send(app, {
      method: "POST",
      path: "/v1/vouchers/import",
      headers: DEMO_KEYS,
      body: {},
    });
    expect(imported.body.details).toBe(
      "POST /v1/vouchers/import (import-vouchers) is not emulated by loyalty-mock",
    );
    const exported = await send(app, { method: "GET", path: "/v1/exports/exp_1", headers: DEMO_KEYS });
    expect(exported.body.details).toMatch(
      /\(download-export\) or .*\(get-export\)|\(get-export\) or .*\(download-export\)/,
    );
  });
});
