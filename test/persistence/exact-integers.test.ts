import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningServer, type StartOptions, startServer } from "../../src/index.js";
import { DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 39: the spec's 64-bit fields (Incentive: every, value, balance; the tier rules' min_value and max_value)
 * keep integers past 2^53 exactly, through every way they travel: the request body, the answer, the state export,
 * an import, a posted project, a fixtures folder, the state file (snapshot and change log) across a restart, the
 * dashboard's view data and the journal. 0.8.0 read them with JSON.parse: 2^63-1 came back as 9223372036854776000,
 * past the int64 range, and 9007199254740993 as ...992. Texts are compared as sent, never through JSON.parse.
 */

const BIG = {
  min: "9007199254740993",
  max: "9223372036854775807",
  every: "9007199254740995",
  value: "9223372036854775806",
  balance: "9223372036854775805",
};
const STRUCTURE = "lts_d0000000000000001";
const POINTS = "linc_d0000000000000101";
const PROPORTIONAL = "linc_d0000000000000011";
const GIFT = "linc_d0000000000000032";
const TIER_BODY = `{"name":"Huge","qualification_rules":{"type":"POINTS","min_value":${BIG.min},"max_value":${BIG.max}}}`;

let dir: string;
const running: RunningServer[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-int64-"));
});
afterEach(async () => {
  for (const server of running.splice(0)) await server.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

async function start(options: StartOptions = {}): Promise<RunningServer> {
  const server = await startServer({
    port: 0,
    stateFile: join(dir, "state.json"),
    stateSync: "always",
    ...options,
  });
  running.push(server);
  return server;
}

async function call(server: RunningServer, method: string, path: string, body?: string, headers = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, text: await res.text() };
}

async function v2Headers(
  server: RunningServer,
  appId = DEMO_KEYS["X-App-Id"],
  token = DEMO_KEYS["X-App-Token"],
) {
  const res = await fetch(`${server.url}/v1/oauth/token`, {
    method: "POST",
    headers: { "X-App-Id": appId, "X-App-Token": token, "Content-Type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&scope=loyalties",
  });
  const { access_token } = (await res.json()) as { access_token: string };
  return { "X-App-Id": appId, "X-App-Token": token, Authorization: `Bearer ${access_token}` };
}

/** A JSON text whose `"@name"` strings are replaced by the digits of BIG.name: what a client of the int64 fields sends. */
function withDigits(document: unknown): string {
  return JSON.stringify(document).replace(/"@(\w+)"/g, (_, name: keyof typeof BIG) => BIG[name]);
}

/** Puts the placeholders of the five fields into an exported (or fixture) document's records. */
function placeBigValues(document: {
  incentives: Record<string, unknown>[];
  tier_structures?: { id: string; tiers: { name: string; qualification_rules: Record<string, unknown> }[] }[];
}): void {
  const incentive = (id: string) => {
    const found = document.incentives.find((record) => record.id === id);
    if (!found) throw new Error(`no ${id}`);
    return found as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
  };
  (incentive(POINTS).points as unknown as Record<string, unknown>).value = "@value";
  const amount = incentive(PROPORTIONAL).points_proportional?.order?.amount as Record<string, unknown>;
  amount.every = "@every";
  amount.value = "@value";
  (incentive(GIFT).digital?.gift_vouchers as unknown as Record<string, unknown>).balance = "@balance";
}

/** Every digit string the five fields must show, as `"field":digits`. */
const EXPECTED = [
  `"min_value":${BIG.min}`,
  `"max_value":${BIG.max}`,
  `"every":${BIG.every}`,
  `"value":${BIG.value}`,
  `"balance":${BIG.balance}`,
];

async function expectAllExact(server: RunningServer, project = "demo") {
  const exported = await call(server, "GET", `/__mock/projects/${project}/state`);
  expect(exported.status).toBe(200);
  for (const field of EXPECTED) expect(exported.text).toContain(field);
  // The dashboard's view data: the same records through the view routes.
  const structure = await call(server, "GET", `/__mock/projects/${project}/tier-structures/${STRUCTURE}`);
  expect(structure.text).toContain(`"min_value":${BIG.min},"max_value":${BIG.max}`);
  const proportional = await call(server, "GET", `/__mock/projects/${project}/incentives/${PROPORTIONAL}`);
  expect(proportional.text).toContain(`"amount":{"every":${BIG.every},"value":${BIG.value}}`);
  const gift = await call(server, "GET", `/__mock/projects/${project}/incentives/${GIFT}`);
  expect(gift.text).toContain(`"balance":${BIG.balance}`);
}

describe("64-bit integers kept exactly", () => {
  it("a tier's min_value and max_value: request, answer, journal, export, view data, restart", async () => {
    const server = await start();
    const headers = await v2Headers(server);
    const created = await call(
      server,
      "POST",
      `/v2/loyalties/tier-structures/${STRUCTURE}/tiers`,
      TIER_BODY,
      headers,
    );
    expect(created.status).toBe(200);
    expect(created.text).toContain(
      `"qualification_rules":{"type":"POINTS","min_value":${BIG.min},"max_value":${BIG.max}}`,
    );
    const journal = await call(server, "GET", "/__mock/projects/demo/requests?method=POST&path=/v2/**");
    expect(journal.text).toContain(`"min_value":${BIG.min},"max_value":${BIG.max}`);
    const exported = await call(server, "GET", "/__mock/projects/demo/state");
    expect(exported.text).toContain(`"min_value":${BIG.min},"max_value":${BIG.max}`);
    await server.close();
    const again = await start();
    const restarted = await call(again, "GET", `/__mock/projects/demo/tier-structures/${STRUCTURE}`);
    expect(restarted.text).toContain(`"min_value":${BIG.min},"max_value":${BIG.max}`);
    // An overlap is judged on the exact values: one below the minimum does not overlap.
    const below = `{"name":"Below","qualification_rules":{"type":"POINTS","min_value":9007199254740990,"max_value":9007199254740992}}`;
    expect(
      (
        await call(
          again,
          "POST",
          `/v2/loyalties/tier-structures/${STRUCTURE}/tiers`,
          below,
          await v2Headers(again),
        )
      ).status,
    ).toBe(200);
  });

  it("every, value and balance: import, the DELETE answer, export, view data, and a restart from the state file", async () => {
    const server = await start();
    const exported = JSON.parse((await call(server, "GET", "/__mock/projects/demo/state")).text);
    placeBigValues(exported);
    exported.tier_structures[0].tiers[0].qualification_rules = {
      type: "POINTS",
      min_value: "@min",
      max_value: "@max",
    };
    const imported = await call(server, "PUT", "/__mock/projects/demo/state", withDigits(exported));
    expect(imported.status, imported.text).toBe(200);
    await expectAllExact(server);
    const headers = await v2Headers(server);
    for (const [id, field] of [
      [POINTS, `"points":{"value":${BIG.value},`],
      [PROPORTIONAL, `"amount":{"every":${BIG.every},"value":${BIG.value}}`],
      [GIFT, `"balance":${BIG.balance}}`],
    ] as const) {
      const deleted = await call(server, "DELETE", `/v2/loyalties/incentives/${id}`, undefined, headers);
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.text).toContain(field);
      expect(deleted.text).toContain('"status":"DELETED"');
    }
    await server.close();
    // The state file (its snapshot and change log) brings every digit back.
    await expectAllExact(await start());
  });

  it("a posted project and a fixtures folder keep them too", async () => {
    const server = await start();
    const document = JSON.parse((await call(server, "GET", "/__mock/projects/demo/state")).text);
    placeBigValues(document);
    document.tier_structures[0].tiers[0].qualification_rules = {
      type: "POINTS",
      min_value: "@min",
      max_value: "@max",
    };
    document.project = { ...document.project, id: "big", name: "Big" };
    document.api_keys = [{ ...document.api_keys[0], app_id: "big-app-id", app_token: "big-app-token" }];
    document.tokens = [];
    const posted = await call(server, "POST", "/__mock/projects", withDigits(document));
    expect(posted.status, posted.text).toBe(201);
    await expectAllExact(server, "big");

    const fixtures = join(dir, "fixtures");
    cpSync(fileURLToPath(new URL("../../fixtures/demo", import.meta.url)), join(fixtures, "demo"), {
      recursive: true,
    });
    const incentives = JSON.parse(readFileSync(join(fixtures, "demo/incentives.json"), "utf8"));
    placeBigValues({ incentives });
    writeFileSync(join(fixtures, "demo/incentives.json"), withDigits(incentives));
    const structures = JSON.parse(readFileSync(join(fixtures, "demo/tier-structures.json"), "utf8"));
    structures[0].tiers[0].qualification_rules = { type: "POINTS", min_value: "@min", max_value: "@max" };
    writeFileSync(join(fixtures, "demo/tier-structures.json"), withDigits(structures));
    await expectAllExact(await start({ fixturesDir: fixtures, stateFile: join(dir, "other-state.json") }));
  });

  it("past the int64 range is 400 in the service's error object, and nothing changes", async () => {
    const server = await start();
    const headers = await v2Headers(server);
    const before = (await call(server, "GET", "/__mock/projects/demo/state")).text;
    for (const [field, text] of [
      [
        "min_value",
        `{"name":"Over","qualification_rules":{"type":"POINTS","min_value":9223372036854775808}}`,
      ],
      ["max_value", `{"name":"Over","qualification_rules":{"type":"POINTS","min_value":1,"max_value":1e19}}`],
    ]) {
      const res = await call(
        server,
        "POST",
        `/v2/loyalties/tier-structures/${STRUCTURE}/tiers`,
        text,
        headers,
      );
      expect(res.status).toBe(400);
      const body = JSON.parse(res.text);
      expect(body).toMatchObject({
        code: 400,
        key: "invalid_payload",
        message: "Invalid payload",
        details: `Property .qualification_rules.${field} should be <= 9223372036854775807`,
      });
    }
    // Below 2^53 nothing was refused for being past 2^53: the beta's schema has no such maximum.
    const exported = JSON.parse(before);
    placeBigValues(exported);
    const over = withDigits(exported).replace(`"value":${BIG.value}`, '"value":9223372036854775808');
    const refused = await call(server, "PUT", "/__mock/projects/demo/state", over);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).details).toContain("should be <= 9223372036854775807");
    expect((await call(server, "GET", "/__mock/projects/demo/state")).text).toBe(before);
  });
});
