import { describe, expect, it } from "vitest";
import { GA_OPERATIONS } from "../../src/http/operations/real-operations.js";
import { OPERATIONS } from "../../src/http/operations/table.js";
import { needsContract } from "../helpers/contract-skips.js";
import { expectError, send } from "../helpers/http.js";
import { concrete, eachNamedIs501, notEmulated } from "../helpers/not-emulated.js";
import { loadLoyaltyV2GaOperations, loadLoyaltyV2Operations } from "../helpers/vendor-operations.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 50: the generally available Loyalty v2 (documentation/openapi/loyalties-v2.json at 65c33a7a) documents
 * operations the beta did not have. A client written against today's reference that calls one we do not emulate
 * gets 501 not_emulated naming it, as the beta's and v1's do, never a plain 404. Where the beta documents the same
 * method and path, the beta's name answers, exactly as before the GA file was served (test/api/not-emulated-v2.test.ts).
 */
const gaFile = needsContract("loyaltyV2Ga");
const withBeta = needsContract("loyaltyV2Ga", "loyaltyV2");
const GA = gaFile.skip ? [] : loadLoyaltyV2GaOperations();
const BETA = withBeta.skip ? [] : loadLoyaltyV2Operations();
const shape = (path: string) => path.replace(/\{[^}]+\}/g, "{}");
const emulated = (method: string, path: string) =>
  OPERATIONS.some((row) => row.method === method && shape(row.path) === shape(path));

describe("the generally available Loyalty v2's operations we do not emulate", () => {
  it("the table is the GA file's list: every method of every path, with its operationId", gaFile, () => {
    expect(GA.length).toBe(102);
    expect(GA_OPERATIONS.map(({ method, path, name }) => `${method} ${path} ${name}`)).toEqual(
      GA.map(({ method, path, operationId }) => `${method} ${path} ${operationId}`),
    );
  });

  it(
    "each is 501 not_emulated naming it (the beta's name where the beta documents it too)",
    withBeta,
    async () => {
      const { app } = buildWorld();
      const answered: string[] = [];
      let renamed = 0;
      for (const op of GA) {
        const res = await send(app, {
          method: op.method as "GET",
          path: concrete(op.path),
          headers: DEMO_KEYS,
          ...(op.method === "POST" || op.method === "PUT" ? { body: {} } : {}),
        });
        const what = `${op.method} ${op.path}`;
        expect(res.status, what).not.toBe(404);
        if (emulated(op.method, op.path)) {
          // The operation itself answers: a refusal of its own, never the route's.
          answered.push(op.operationId);
          expect([405, 501], what).not.toContain(res.status);
          continue;
        }
        const beta = BETA.find((other) => other.method === op.method && shape(other.path) === shape(op.path));
        if (beta && beta.operationId !== op.operationId) renamed += 1;
        const named = beta
          ? `${beta.method} ${beta.path} (${beta.operationId})`
          : `${what} (${op.operationId})`;
        expect(res.status, what).toBe(501);
        expect(res.body, what).toMatchObject(notEmulated(named));
      }
      expect(answered).toEqual(
        OPERATIONS.filter((row) =>
          GA.some((op) => op.method === row.method && shape(op.path) === shape(row.path)),
        ).map(
          (row) =>
            GA.find((op) => op.method === row.method && shape(op.path) === shape(row.path))?.operationId,
        ),
      );
      expect(answered).toEqual(["createTier", "deleteBenefit"]);
      // The operations the GA file renamed on a path the beta documents: named as the beta names them.
      expect(renamed).toBe(23);
    },
  );

  // These run without the contract: operations only the GA file documents, each by its own answer.
  const named = [
    ["GET", "/v2/loyalties/benefits", "GET /v2/loyalties/benefits (listBenefits)"],
    [
      "GET",
      "/v2/loyalties/benefits/lben_d0000000000000001",
      "GET /v2/loyalties/benefits/{benefitId} (getBenefit)",
    ],
    [
      "PUT",
      "/v2/loyalties/benefits/lben_d0000000000000001",
      "PUT /v2/loyalties/benefits/{benefitId} (updateBenefit)",
    ],
    [
      "POST",
      "/v2/loyalties/benefits/lben_d0000000000000001/activate",
      "POST /v2/loyalties/benefits/{benefitId}/activate (activateBenefit)",
    ],
    [
      "GET",
      "/v2/loyalties/memberships/cust_demo_alice",
      "GET /v2/loyalties/memberships/{customerId} (getCustomerMemberships)",
    ],
    [
      "POST",
      "/v2/loyalties/programs/lp_1/members/batch",
      "POST /v2/loyalties/programs/{programId}/members/batch (batchCreateProgramMembers)",
    ],
    ["POST", "/v2/loyalties/examine/rewards", "POST /v2/loyalties/examine/rewards (examineRewards)"],
    [
      "POST",
      "/v2/oauth/token",
      "POST /v2/oauth/token (announced in the vendor's changelog of 22 July 2026; no OpenAPI file describes it)",
    ],
  ] as const;
  eachNamedIs501(
    named,
    (method, path, _what) => `${method} ${path} - 501 not_emulated naming it, with or without credentials`,
  );

  it("a path both versions document answers with the beta's name, as before the GA file was served", async () => {
    const { app } = buildWorld();
    const res = await send(app, {
      method: "GET",
      path: "/v2/loyalties/programs/lp_1/members",
      headers: DEMO_KEYS,
    });
    expectError(res, 501, notEmulated("GET /v2/loyalties/programs/{programId}/members (listMembers)"));
  });
});
