import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { workloads } from "../../bench/workloads.js";
import { runInputs } from "../../src/cli/verify/step.js";
import { STEPS } from "../../src/cli/verify/steps.js";
import { DEFAULTS } from "../../src/config/settings.js";
import { baseApp, finishApp } from "../../src/http/app.js";
import { activityOf, sentenceOf } from "../../src/http/control/demo/activity.js";
import { HIDDEN_FROM_AUDIENCE } from "../../src/http/control/demo/activity-extras.js";
import { paramsOf } from "../../src/http/control/route-table.js";
import { mountOperations } from "../../src/http/operations/mount.js";
import { OPERATIONS, type Operation, operation } from "../../src/http/operations/table.js";
import { expressPath, filledPath } from "../../src/http/route.js";
import { operationCases } from "../fuzz/operations.js";
import { operationFor } from "../helpers/contract.js";
import { gaOperationFor } from "../helpers/contract-ga.js";
import { needsContract } from "../helpers/contract-skips.js";
import { exampleCall } from "../helpers/example-call.js";
import { filesOfNewOperation } from "../helpers/files.js";
import { send } from "../helpers/http.js";
import { ROOT } from "../helpers/process.js";
import { buildWorld } from "../helpers/world.js";

/**
 * The operation table (src/http/operations/table.ts) is the one place an operation is declared: every row must be
 * routed, authenticated before anything else, fuzzed, benchmarked and verified against the sandbox. A row that one
 * of them misses fails here (or, where a file is keyed by the operations' names, in the type checker).
 */

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** A concrete path of the row: each `{param}` filled with a value no fixture has. */
function concretePath(row: Operation): string {
  return row.path.replace(/\{[^}]+\}/g, "zz_unknown");
}

/** The row's path as a pattern any concrete path of it matches. */
function pathPattern(row: Operation): RegExp {
  return new RegExp(`^${row.path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
}

function appWith(rows: readonly Operation[]) {
  const world = buildWorld();
  const app = baseApp(DEFAULTS);
  mountOperations(app, { registry: world.registry, bodyLimit: DEFAULTS.bodyLimit }, rows);
  return finishApp(app, DEFAULTS.bodyLimit);
}

/** Ids of any shape: an example's path parameters are filled from them. */
const IDS = {
  campaign: "c",
  location: "l",
  event: { name: "e" },
  tierStructure: "t",
  incentive: "i",
  customer: "s",
  n: 1,
};

describe("every row of the operation table", () => {
  const app = appWith(OPERATIONS);

  for (const row of OPERATIONS) {
    // The six operations' contract (the v1 reference, the Loyalty v2 beta), or the generally available Loyalty
    // v2's: each version's rows are in the contract their answers are checked against.
    it(
      `${row.name}: an operation of the vendor's contract`,
      needsContract("sixOperations", "loyaltyV2Ga"),
      () => {
        const path = concretePath(row);
        expect(operationFor(row.method, path) ?? gaOperationFor(row.method, path)).toBeDefined();
      },
    );

    it(`${row.name}: routed and authenticated first (401 without credentials, contract-valid)`, async () => {
      const response = await send(app, { method: row.method, path: concretePath(row) });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 401, key: "unauthorized" });
      expect(response.body.details).toMatch(/^Missing/);
    });

    it(`${row.name}: another method on its path is 405 naming ${row.method} in Allow`, async () => {
      // PATCH: no operation of the reference or the beta uses it, so no path answers it with a 501.
      const response = await request(app).patch(concretePath(row));
      expect(response.status).toBe(405);
      expect(response.headers.allow?.split(", ")).toContain(row.method);
    });

    it(`${row.name}: its example call names exactly its path's parameters, and a body where it reads one`, () => {
      const call = row.example(IDS);
      expect(Object.keys(call.params).sort()).toEqual(paramsOf(row.path).sort());
      expect(filledPath(row.path, call.params)).not.toMatch(/[{}]/);
      if (row.body === "none") expect(call.body).toBeUndefined();
    });
  }

  // Issue 15: the first row (the token endpoint) is a real operation, so unmounted it is 501 not_emulated.
  it("a row left out of the mount is not served (the checks above can fail)", async () => {
    const [first, ...rest] = OPERATIONS;
    if (!first) throw new Error("empty table");
    const response = await request(appWith(rest))[first.method.toLowerCase() as "get" | "post" | "delete"](
      concretePath(first),
    );
    expect(response.status).toBe(501);
    expect(response.body.details).toBe(
      "POST /v1/oauth/token (generate-oauth-token) is not emulated by loyalty-mock",
    );
  });

  it("is told by the dashboard in its row's words, a success and a refusal alike", async () => {
    for (const row of OPERATIONS) {
      const world = buildWorld();
      expect((await exampleCall(world, row)).status, row.name).toBe(200);
      // The row's words, read back from the journal entry (the audience's activity hides the token requests,
      // HIDDEN_FROM_AUDIENCE; the Data view tells them).
      const [entry] = world.demo.journal.list({ limit: 1 });
      if (!entry) throw new Error("not journaled");
      const told = sentenceOf(world.demo, entry);
      expect(told.ok, row.name).toBe(true);
      expect(told.text, row.name).not.toMatch(/ answered 200$/);
      const shown = activityOf(world.demo, 1).activity.map((item) => item.text);
      expect(shown, row.name).toEqual(HIDDEN_FROM_AUDIENCE.includes(row.name) ? [] : [told.text]);
      const refused = sentenceOf(world.demo, {
        ...entry,
        status: 404,
        response_body: { code: 404, key: "not_found", details: "Cannot find it" },
      });
      expect(refused, row.name).toEqual({ ok: false, text: expect.stringContaining("404, Cannot find it") });
      expect(refused.text, row.name).not.toMatch(/^[A-Z]+ \//);
    }
  });

  it("has a generated-input (fuzz) target per row, and no target for anything else", () => {
    expect(Object.keys(operationCases("t")).sort()).toEqual(OPERATIONS.map((row) => row.name).sort());
  });

  it("has a benchmark workload per row, each sending the row's method to a path of the row", () => {
    const all = workloads({ tierStructures: 1, incentives: 1 });
    expect(all.map((workload) => workload.operation).sort()).toEqual(
      OPERATIONS.map((row) => row.name).sort(),
    );
    for (const workload of all) {
      const row = OPERATIONS.find((candidate) => candidate.name === workload.operation);
      if (!row) throw new Error(`workload ${workload.name} measures no row`);
      for (const sent of workload.requests({ token: "t" })) {
        const setup = sent.setupRequest as
          | ((request: typeof sent, context: object) => typeof sent)
          | undefined;
        const prepared = setup ? setup({ ...sent }, {}) : sent;
        expect(prepared?.method).toBe(row.method);
        expect(prepared?.path).toMatch(pathPattern(row));
      }
    }
  });

  it("has verify steps per row, each sending the row's method to a path of the row, and none for anything else", () => {
    expect([...new Set(STEPS.map((step) => step.operation))].sort()).toEqual(
      OPERATIONS.map((row) => row.name).sort(),
    );
    const objects = {
      loyalty_campaign_id: "camp_x",
      location_id: "loc_x",
      tier_structure_id: "lts_x",
      incentive_ids: ["linc_0"],
      custom_event: { name: "x", metadata: {} },
    };
    for (const step of STEPS) {
      const row = operation(step.operation);
      const sent = step.request(objects, runInputs(Date.now()), "linc_0");
      expect(sent.method, step.name).toBe(row.method);
      expect(sent.path, step.name).toMatch(pathPattern(row));
    }
  });

  it("has a title", () => {
    for (const row of OPERATIONS) expect(row.title.trim(), row.name).not.toBe("");
  });

  it("docs/internals/adding-an-operation.md lists at most six files a new operation touches, none of them derived", () => {
    const files = filesOfNewOperation(read("docs/internals/adding-an-operation.md"));
    expect(files.length).toBeGreaterThan(3);
    expect(files.length).toBeLessThanOrEqual(6);
    expect(files).toContain("src/http/operations/table.ts");
    for (const file of files.filter((name) => !name.includes("<")))
      expect(existsSync(join(ROOT, file)), file).toBe(true);
    for (const derived of [
      "src/cli/verify/steps.ts",
      "bench/workloads.ts",
      "test/fuzz/operations.ts",
      "README.md",
    ])
      expect(files).not.toContain(derived);
  });

  it("declares Express paths from the contract's paths", () => {
    expect(expressPath("/v1/loyalties/{campaignId}/members")).toBe("/v1/loyalties/:campaignId/members");
  });
});
