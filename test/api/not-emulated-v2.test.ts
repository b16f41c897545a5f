import { describe, expect, it } from "vitest";
import { BETA_OPERATIONS } from "../../src/http/operations/real-operations.js";
import { OPERATIONS } from "../../src/http/operations/table.js";
import { needsContract } from "../helpers/contract-skips.js";
import { expectError, send } from "../helpers/http.js";
import { concrete, eachNamedIs501, notEmulated } from "../helpers/not-emulated.js";
import { loadLoyaltyV2Operations } from "../helpers/vendor-operations.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 39: the Loyalty v2 beta documents more operations than the spec's two (documentation/openapi/loyalties-v2.json
 * at commit 9502f5ce). A client written against the beta that calls one of the others gets 501 not_emulated naming
 * it, as every v1 operation we do not emulate does, not a 405 or 404 it would read as its own mistake.
 */
const betaFile = needsContract("loyaltyV2");
const BETA = betaFile.skip ? [] : loadLoyaltyV2Operations();
const emulated = (method: string, path: string) =>
  OPERATIONS.some((row) => row.method === method && row.path === path);

describe("the Loyalty v2 beta's operations we do not emulate", () => {
  it("the table is the beta file's list: every method of every path, with its operationId", betaFile, () => {
    expect(BETA.length).toBe(81);
    expect(BETA_OPERATIONS.map(({ method, path, name }) => `${method} ${path} ${name}`)).toEqual(
      BETA.map(({ method, path, operationId }) => `${method} ${path} ${operationId}`),
    );
    // The rows the beta documents: the spec's two. The generally available reference's benefit deletion is a v2
    // row the beta does not have (test/api/not-emulated-ga.test.ts).
    const beta = OPERATIONS.filter((row) =>
      BETA.some((op) => op.method === row.method && op.path === row.path),
    );
    expect(beta.map((row) => row.name)).toEqual(["createTier", "deleteIncentive"]);
    expect(
      OPERATIONS.filter((row) => row.path.startsWith("/v2/") && !beta.includes(row)).map((row) => row.name),
    ).toEqual(["deleteBenefit"]);
  });

  it("each is 501 not_emulated naming it; the two we emulate answer themselves", betaFile, async () => {
    const { app } = buildWorld();
    let answered = 0;
    for (const op of BETA) {
      const res = await send(app, {
        method: op.method as "GET",
        path: concrete(op.path),
        headers: DEMO_KEYS,
        ...(op.method === "POST" || op.method === "PUT" ? { body: {} } : {}),
      });
      const what = `${op.method} ${op.path}`;
      if (emulated(op.method, op.path)) {
        answered += 1;
        // The operation itself answers: a refusal of its own (a 404 names the record), never the route's.
        expect([405, 501], what).not.toContain(res.status);
        if (res.status === 404) expect(res.body.resource_type, what).toBeDefined();
        continue;
      }
      expect(res.status, what).toBe(501);
      expect(res.body, what).toMatchObject(notEmulated(`${what} (${op.operationId})`));
    }
    expect(answered).toBe(2);
  });

  // These run without the contract: the operations the issue names, each by its own answer.
  const named = [
    [
      "GET",
      "/v2/loyalties/incentives/linc_d0000000000000001",
      "GET /v2/loyalties/incentives/{id} (getIncentive)",
    ],
    [
      "PUT",
      "/v2/loyalties/incentives/linc_d0000000000000001",
      "PUT /v2/loyalties/incentives/{id} (updateIncentive)",
    ],
    ["GET", "/v2/loyalties/incentives", "GET /v2/loyalties/incentives (listIncentives)"],
    [
      "POST",
      "/v2/loyalties/incentives/linc_d0000000000000001/activate",
      "POST /v2/loyalties/incentives/{id}/activate (activateIncentive)",
    ],
    [
      "GET",
      "/v2/loyalties/tier-structures/lts_demo",
      "GET /v2/loyalties/tier-structures/{id} (getTierStructure)",
    ],
    [
      "GET",
      "/v2/loyalties/tier-structures/lts_demo/tiers",
      "GET /v2/loyalties/tier-structures/{id}/tiers (listTiers)",
    ],
    [
      "PUT",
      "/v2/loyalties/tier-structures/lts_demo/tiers/lt_1",
      "PUT /v2/loyalties/tier-structures/{id}/tiers/{tierId} (updateTier)",
    ],
    ["GET", "/v2/loyalties/programs", "GET /v2/loyalties/programs (listPrograms)"],
  ] as const;
  eachNamedIs501(
    named,
    (method, path, what) =>
      `${method} ${path} - 501 not_emulated naming ${what.split(" (")[1]?.slice(0, -1)}, with or without credentials`,
  );

  it("a method the beta does not document on a served path is still 405; a path it lacks is still 404", async () => {
    const { app } = buildWorld();
    const patch = await send(app, {
      method: "PATCH",
      path: "/v2/loyalties/incentives/linc_d0000000000000001",
      headers: DEMO_KEYS,
      body: {},
    });
    expectError(patch, 405, { details: "PATCH is not supported by this endpoint. Did you mean DELETE?" });
    const unknown = await send(app, { method: "GET", path: "/v2/loyalties/nothing", headers: DEMO_KEYS });
    expectError(unknown, 404, {
      key: "not_found",
      details: "Cannot GET /v2/loyalties/nothing: no such endpoint",
    });
  });
});
