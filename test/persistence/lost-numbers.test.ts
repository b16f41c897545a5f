import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../src/clients/play/scenario.js";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import { logFilesOf } from "../../src/persistence/replay.js";
import { StateFileError } from "../../src/persistence/state-file.js";
import { DEFAULT_FIXTURES_DIR } from "../../src/platform/fixtures.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { buildWorld } from "../helpers/world.js";

/**
 * Issue 44: free-form JSON (metadata, a voucher's discount and gift) enters by more ways than a request body. A
 * number no JSON text can carry back (1e400, 400 digits: Infinity once read) is refused at each of them, naming
 * where it is, as the way in names any other problem; nothing changes. `"@lost"` in a document stands for it.
 */

const HUGE = "9".repeat(400);
const withLost = (document: unknown, number = "1e400") => JSON.stringify(document).replace('"@lost"', number);

let dir: string;
const running: RunningServer[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-lost-"));
});
afterEach(async () => {
  for (const server of running.splice(0)) await server.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

async function exported(world: ReturnType<typeof buildWorld>) {
  return (await request(world.app).get("/__mock/projects/demo/state")).text;
}

describe("the control API's documents", () => {
  it("PUT .../state: 400 naming the record's path, the project as it was", async () => {
    const world = buildWorld();
    const before = await exported(world);
    const document = JSON.parse(before);
    document.customers[1].metadata = { lost: "@lost" };
    const res = await request(world.app)
      .put("/__mock/projects/demo/state")
      .set("Content-Type", "application/json")
      .send(withLost(document));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      key: "invalid_payload",
      message: "Invalid payload",
      details: "$.customers[1].metadata.lost: should be number",
    });
    expect(await exported(world)).toBe(before);
  });

  it("PUT .../state, in a tier's metadata (read exactly): 400, nothing changed", async () => {
    const world = buildWorld();
    const before = await exported(world);
    const document = JSON.parse(before);
    document.tier_structures[0].tiers[0].metadata = { lost: ["@lost"] };
    const res = await request(world.app)
      .put("/__mock/projects/demo/state")
      .set("Content-Type", "application/json")
      .send(withLost(document, HUGE));
    expect(res.body.details).toBe("$.tier_structures[0].tiers[0].metadata.lost[0]: should be number");
    expect(await exported(world)).toBe(before);
  });

  it("POST /__mock/projects with a document: 400 naming the path, no project made", async () => {
    const world = buildWorld();
    const document = JSON.parse(await exported(world));
    document.project = { id: "lost" };
    document.api_keys = [];
    document.tokens = [];
    document.vouchers[0].discount = { type: "AMOUNT", amount_off: "@lost" };
    const res = await request(world.app)
      .post("/__mock/projects")
      .set("Content-Type", "application/json")
      .send(withLost(document, "-1e400"));
    expect(res.status).toBe(400);
    expect(res.body.details).toBe("Property .vouchers[0].discount.amount_off should be number");
    expect(world.registry.list().map((project) => project.id)).toEqual(["demo", "other"]);
  });
});

describe("documents on disk", () => {
  it("a fixtures folder: the start refused, naming the file and the path", () => {
    const project = join(dir, "other");
    cpSync(join(DEFAULT_FIXTURES_DIR, "other"), project, { recursive: true });
    const file = join(project, "customers.json");
    const customers = JSON.parse(readFileSync(file, "utf8"));
    customers[0].metadata = { ...customers[0].metadata, lost: "@lost" };
    writeFileSync(file, withLost(customers, HUGE));
    // The loader names the file relative to the working folder. The absolute path matched only as a part of that
    // name, which it is not in a checkout two folders under /tmp, as .ci/run's fresh clone is.
    expect(() => loadProjectDocuments(dir)).toThrow(
      `${relative(process.cwd(), file)}: $[0].metadata.lost: should be number`,
    );
  });

  it("a state file whose log brings one: the start refused, naming the record", async () => {
    const file = join(dir, "state.json");
    const first = await startServer({ port: 0, stateFile: file, stateSync: "always" });
    const customer = first.registry.get("demo").customers.list()[0];
    await first.close();
    if (!customer) throw new Error("the demo project has customers");
    const record = { ...customer, metadata: { lost: "@lost" } };
    const log = logFilesOf(file).at(-1)?.path as string;
    appendFileSync(
      log,
      `${withLost({ p: "demo", o: "put", c: "customers", k: customer.id, r: record })}\n{"o":"commit"}\n`,
    );
    const start = startServer({ port: 0, stateFile: file, stateSync: "always" });
    await expect(start).rejects.toThrow(
      new StateFileError(file, "project demo, state: $.customers[0].metadata.lost: should be number"),
    );
  });

  it("a scenario for loyalty-mock play: refused, naming the step", () => {
    const scenario = {
      title: "Lost",
      steps: [{ type: "event", event: "user_subscribed", customer: "a", metadata: { plan: "@lost" } }],
    };
    expect(() => parseScenario(withLost(scenario))).toThrow("$.steps[0].metadata.plan: should be number");
  });
});
