import request from "supertest";
import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { send } from "../helpers/http.js";
import { v2Headers } from "../helpers/v2.js";
import { buildWorld, type World } from "../helpers/world.js";

/**
 * Issue 44: every control answer that can hold one of the 64-bit fields shows it as sent, past 2^53 (0.8.0 read
 * them through JSON.parse, and the story's next_at still goes through Number()). test/persistence/
 * exact-integers.test.ts follows the values through the state file, the export and one record's view; here are
 * the other answers: lists, snapshots, resets, templates, the journal's answers, a refusal's details, the
 * audience views. Texts are compared as sent, never through JSON.parse, which would round them again.
 */

const MIN = "9223372036854775806";
const MAX = "9223372036854775807";
const VALUE = "9007199254740993";
const STRUCTURE = "lts_d0000000000000001";
const POINTS = "linc_d0000000000000101";
const RULES = `"qualification_rules":{"type":"POINTS","min_value":${MIN},"max_value":${MAX}}`;

const text = async (world: World, path: string) => {
  const res = await request(world.app).get(path);
  expect(res.status, res.text).toBe(200);
  return res.text;
};

/** The demo project with a tier from MIN to MAX in its structure and VALUE as a points incentive's value. */
async function withBigValues(world: World, path = "/__mock/projects/demo/state"): Promise<void> {
  const document = JSON.parse(await text(world, "/__mock/projects/demo/state"));
  document.tier_structures[0].tiers.push({
    id: "lt_b16b16b16b16b16b16",
    name: "Huge",
    qualification_rules: { type: "POINTS", min_value: "@min", max_value: "@max" },
    created_at: "2026-11-20T10:00:00.000Z",
  });
  document.incentives.find((incentive: { id: string }) => incentive.id === POINTS).points.value = "@value";
  if (path === "/__mock/projects") {
    document.project = { id: "big" };
    document.api_keys = [{ app_id: "big-app-id", app_token: "big-app-token" }];
    document.tokens = [];
  }
  const body = JSON.stringify(document)
    .replace('"@min"', MIN)
    .replace('"@max"', MAX)
    .replace('"@value"', VALUE);
  const method = path === "/__mock/projects" ? "post" : "put";
  const res = await request(world.app)[method](path).set("Content-Type", "application/json").send(body);
  expect(res.status, res.text).toBeLessThan(300);
}

describe("control answers keep the 64-bit fields' digits", () => {
  it("the views' lists, whole and filtered", async () => {
    const world = buildWorld();
    await withBigValues(world);
    expect(await text(world, "/__mock/projects/demo/tier-structures")).toContain(RULES);
    expect(await text(world, "/__mock/projects/demo/tier-structures?name=Demo%20Tiers")).toContain(RULES);
    expect(await text(world, "/__mock/projects/demo/incentives?type=POINTS")).toContain(`"value":${VALUE}`);
  });

  it("a snapshot restored after a reset", async () => {
    const world = buildWorld();
    await withBigValues(world);
    await request(world.app).post("/__mock/projects/demo/snapshots").send({ name: "big" }).expect(201);
    await request(world.app).post("/__mock/projects/demo/reset").expect(200);
    expect(await text(world, "/__mock/projects/demo/tier-structures")).not.toContain(MIN);
    await request(world.app).post("/__mock/projects/demo/snapshots/big/restore").expect(200);
    expect(await text(world, `/__mock/projects/demo/tier-structures/${STRUCTURE}`)).toContain(RULES);
    expect(await text(world, "/__mock/projects/demo/snapshots")).toContain('"name":"big"');
  });

  it("a posted project reset to its own fixtures after they were emptied", async () => {
    const world = buildWorld();
    await withBigValues(world, "/__mock/projects");
    const emptied = await request(world.app)
      .put("/__mock/projects/big/state")
      .send({ project: { id: "big" } });
    expect(emptied.status, emptied.text).toBe(200);
    expect(await text(world, "/__mock/projects/big/tier-structures")).not.toContain(MIN);
    await request(world.app).post("/__mock/projects/big/reset").expect(200);
    expect(await text(world, "/__mock/projects/big/tier-structures")).toContain(RULES);
    expect(await text(world, `/__mock/projects/big/incentives/${POINTS}`)).toContain(`"value":${VALUE}`);
  });

  it("a project made from a template that holds them", async () => {
    const world = buildWorld();
    await withBigValues(world, "/__mock/projects");
    const made = await request(world.app)
      .post("/__mock/projects")
      .send({ template: "big", project_id: "copy" });
    expect(made.status, made.text).toBe(201);
    expect(await text(world, "/__mock/projects/copy/tier-structures")).toContain(RULES);
    expect(await text(world, "/__mock/projects/copy/state")).toContain(`"value":${VALUE}`);
  });

  it("the journal: an answer that carried them", async () => {
    const world = buildWorld();
    await withBigValues(world);
    const headers = { ...(await v2Headers(world)), "Content-Type": "application/json" };
    const deleted = await send(world.app, {
      method: "DELETE",
      path: `/v2/loyalties/incentives/${POINTS}`,
      headers,
    });
    expect(deleted.text).toContain(`"value":${VALUE}`);
    const journal = await text(world, "/__mock/projects/demo/requests?method=DELETE");
    expect(journal).toContain(`"value":${VALUE}`);
  });

  it("a refusal's details name the values as sent", async () => {
    const world = buildWorld();
    const document = JSON.parse(await text(world, "/__mock/projects/demo/state"));
    document.tier_structures[0].tiers[0].qualification_rules = {
      type: "POINTS",
      min_value: "@max",
      max_value: "@min",
    };
    const body = JSON.stringify(document).replace('"@min"', MIN).replace('"@max"', MAX);
    const res = await request(world.app)
      .put("/__mock/projects/demo/state")
      .set("Content-Type", "application/json")
      .send(body);
    expect(res.status).toBe(400);
    expect(res.text).toContain(`should be >= min_value (${MAX})`);
  });

  // 0.10.0 read min_value through Number() and answered 9223372036854776000 (figures.ts).
  it("the story's next_at: the next tier's min_value, exact", async () => {
    const world = buildWorld();
    await withBigValues(world);
    const story = await control(world.app, {
      method: "GET",
      path: "/__mock/projects/demo/customers/cust_demo_alice/story",
    });
    expect(story.text).toContain(`"next_tier":"Huge","next_at":${MIN}`);
  });
});
