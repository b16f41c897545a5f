import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportProject } from "../../src/domain/projects/state-export.js";
import {
  createRegistry,
  type ProjectRegistry,
  type RunningServer,
  type StartOptions,
  startServer,
} from "../../src/index.js";
import { loadState } from "../../src/persistence/load-state.js";
import { logFilesOf } from "../../src/persistence/replay.js";
import { restoreProjects, StateFileError, serializeState } from "../../src/persistence/state-file.js";
import { DEMO_KEYS, OTHER_KEYS } from "../helpers/world.js";

let dir: string;
let file: string;
const running: RunningServer[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-store-"));
  file = join(dir, "state.json");
});
afterEach(async () => {
  for (const server of running.splice(0)) await server.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

async function start(options: StartOptions = {}): Promise<RunningServer> {
  const server = await startServer({ port: 0, stateFile: file, stateSync: "always", ...options });
  running.push(server);
  return server;
}

/** The projects a restart would build from what is on disk right now, as exports (fixtures beside each). */
function restartedFromDisk(): unknown[] {
  const loaded = loadState(file);
  if (!loaded) throw new Error("nothing on disk");
  const registry = createRegistry({
    clock: { now: Date.now },
    defaults: running[0]?.registry.defaults as never,
  });
  restoreProjects(registry, loaded.projects, file);
  return describe_(registry);
}

function describe_(registry: ProjectRegistry): unknown[] {
  return registry.list().map((project) => ({
    state: exportProject(project),
    fixtures: registry.fixturesOf(project.id),
  }));
}

async function call(server: RunningServer, method: string, path: string, body?: unknown, headers = {}) {
  const form = typeof body === "string";
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...headers,
      ...(body !== undefined && {
        "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json",
      }),
    },
    ...(body !== undefined && { body: form ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text.slice(0, 300)}`).toBeLessThan(300);
  return text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

/** Every kind of change the server makes: operations, keys, clock, settings, imports, resets, projects. */
async function changeEverything(server: RunningServer, round: number): Promise<void> {
  const token = "grant_type=client_credentials&scope=api";
  await call(server, "POST", "/v1/oauth/token", token, DEMO_KEYS);
  for (let i = 0; i < 3; i++)
    await call(
      server,
      "POST",
      "/v1/loyalties/camp_demo_loyalty/members",
      {
        customer: { source_id: `r${round}-${i}@example.com`, name: `R ${i}` },
      },
      DEMO_KEYS,
    );
  await call(
    server,
    "POST",
    "/v1/events",
    {
      event: "user_subscribed",
      customer: { source_id: "alice@example.com" },
      metadata: { plan: "pro" },
    },
    DEMO_KEYS,
  );
  const bearer = (await call(server, "POST", "/v1/oauth/token", token, DEMO_KEYS))?.access_token;
  const v2 = { ...DEMO_KEYS, Authorization: `Bearer ${bearer}` };
  await call(server, "DELETE", `/v2/loyalties/incentives/linc_d000000000000010${round}`, undefined, v2);
  await call(
    server,
    "POST",
    "/v2/loyalties/tier-structures/lts_d0000000000000001/tiers",
    {
      name: `Gold ${round}`,
      qualification_rules: { type: "POINTS", min_value: 10_000 * round, max_value: 10_000 * round + 999 },
    },
    v2,
  );
  await call(server, "POST", "/__mock/projects/demo/clock", { advance_seconds: 60 });
  await call(server, "PATCH", "/__mock/projects/other/settings", { token_grace_seconds: round });
  const key = await call(server, "POST", "/__mock/projects/other/keys", { name: `key ${round}` });
  await call(server, "POST", `/__mock/projects/other/keys/${key?.app_id}/block`);
  await call(server, "POST", "/v1/oauth/token", token, OTHER_KEYS);
  // Keys changed in place, after the batch that created them is on disk.
  await call(
    server,
    "POST",
    `/__mock/projects/demo/keys/demo-readonly-app-id/${round === 2 ? "unblock" : "block"}`,
  );
  await call(server, "POST", "/__mock/projects/demo/keys/demo-readonly-app-id/regenerate");
  await call(server, "POST", "/__mock/projects", { template: "demo", project_id: `copy-${round}` });
  await call(server, "POST", `/__mock/projects/copy-${round}/clock`, { advance_seconds: 5 });
  await call(server, "POST", `/__mock/projects/copy-${round}/reset`);
  if (round > 1) await call(server, "DELETE", `/__mock/projects/copy-${round - 1}`);
  const other = await call(server, "GET", "/__mock/projects/other/state");
  (other as { project: { name: string } }).project.name = `Other, round ${round}`;
  await call(server, "PUT", "/__mock/projects/other/state", other);
  await call(server, "POST", "/v1/oauth/token", token, OTHER_KEYS);
}

describe("the state file's snapshot and change log", () => {
  it("a restart builds exactly the live state, after every kind of change and compactions between them", async () => {
    const server = await start();
    for (let round = 1; round <= 3; round++) {
      // A snapshot written while the changes are made: the log since its start must correct what it read.
      const compaction = server.stateStore?.compact();
      await changeEverything(server, round);
      await compaction;
      // Acknowledged in always mode, so on disk now, without a close: what a crash would leave.
      expect(restartedFromDisk(), `round ${round}`).toEqual(describe_(server.registry));
    }
    expect(server.stateStore?.snapshots).toBe(4);
    expect(logFilesOf(file).map((log) => log.gen)).toEqual([4]);
    await server.close();
    const again = await start();
    expect(describe_(again.registry)).toEqual(describe_(server.registry));
  });

  it("a write appends its change to the log and leaves the snapshot alone", async () => {
    const server = await start();
    const snapshot = statSync(file);
    const snapshotText = readFileSync(file);
    const logBytes = () => logFilesOf(file).reduce((sum, log) => sum + statSync(log.path).size, 0);
    for (let i = 0; i < 20; i++) {
      const before = logBytes();
      await call(server, "POST", "/v1/oauth/token", "grant_type=client_credentials&scope=api", DEMO_KEYS);
      // One token record and a commit line: the change, not the 1.8 MB state.
      expect(logBytes() - before).toBeLessThan(1024);
    }
    expect(statSync(file).mtimeMs).toBe(snapshot.mtimeMs);
    expect(readFileSync(file).equals(snapshotText)).toBe(true);
  });

  it("leaves out a batch a crash cut short, and refuses a log damaged in the middle, naming file and line", async () => {
    const server = await start();
    await call(server, "POST", "/v1/oauth/token", "grant_type=client_credentials&scope=api", DEMO_KEYS);
    const expected = describe_(server.registry);
    await server.close();
    const log = logFilesOf(file).at(-1)?.path as string;
    appendFileSync(log, '{"o":"del","p":"demo","c":"tokens","k":"x"}\n{"o":"put","p":"demo","c":"tok');
    expect(restartedFromDisk()).toEqual(expected);

    const lines = readFileSync(log, "utf8").split("\n");
    lines.splice(1, 0, "not json");
    writeFileSync(log, lines.join("\n"));
    expect(() => loadState(file)).toThrow(new StateFileError(log, "line 2: not valid JSON"));
  });

  // A batch without its commit line was never acknowledged: replaying it would bring back a change no client was
  // told of. The cut batch here would change the state (it deletes a token that exists and renames the project;
  // the same lines with a commit line do both), so leaving it out is seen, with and without a torn last line.
  for (const tail of ["", '{"o":"put","p":"demo","c":"tok'])
    it(`leaves out a cut batch that would change the state (${tail ? "torn last line" : "whole lines"})`, async () => {
      const server = await start();
      const token = String(
        (await call(server, "POST", "/v1/oauth/token", "grant_type=client_credentials&scope=api", DEMO_KEYS))
          ?.access_token,
      );
      const expected = describe_(server.registry);
      await server.close();
      const log = logFilesOf(file).at(-1)?.path as string;
      const acknowledged = readFileSync(log);
      const header = {
        id: "demo",
        name: "Renamed by a batch never committed",
        settings: {},
        clock: { offset_ms: 0 },
      };
      const batch = `${JSON.stringify({ o: "del", p: "demo", c: "tokens", k: token })}\n${JSON.stringify({ o: "head", p: "demo", h: header })}\n`;
      const restarted = () => {
        const registry = createRegistry({ clock: { now: Date.now } });
        restoreProjects(registry, loadState(file)?.projects ?? [], file);
        const demo = registry.get("demo");
        return { name: demo.name, hasToken: demo.tokens.find(token) !== undefined };
      };
      expect(restarted()).toEqual({ name: "Demo project", hasToken: true });

      writeFileSync(log, Buffer.concat([acknowledged, Buffer.from(`${batch}{"o":"commit"}\n`)]));
      expect(restarted()).toEqual({ name: header.name, hasToken: false });

      writeFileSync(log, Buffer.concat([acknowledged, Buffer.from(batch + tail)]));
      expect(restarted()).toEqual({ name: "Demo project", hasToken: true });
      expect(restartedFromDisk()).toEqual(expected);
    });

  it("writes an unchanged record once, as its fixture, and keeps it one object across a restart", async () => {
    await (await start()).close();
    const lines = readFileSync(file, "utf8").split("\n");
    expect(
      lines.filter((line) => line.startsWith('{"o":"same","p":"demo","c":"vouchers"')).length,
    ).toBeGreaterThan(1000);
    const server = await start();
    const fixtures = server.registry.fixturesOf("demo").vouchers;
    const first = fixtures[0] as { id: string };
    expect(server.registry.get("demo").vouchers.stored(first.id)).toBe(first);
  });

  it("refuses a snapshot cut short", async () => {
    await (await start()).close();
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.slice(0, text.lastIndexOf('{"o":"end"')));
    await expect(start()).rejects.toThrow(
      new StateFileError(file, "the snapshot is cut short (no end line)"),
    );
  });

  it("trusts a snapshot only as its checksum says, and validates what the logs bring", async () => {
    const server = await start();
    await call(server, "POST", "/v1/oauth/token", "grant_type=client_credentials&scope=api", DEMO_KEYS);
    await server.close();
    const text = readFileSync(file, "utf8");
    const end = text.split("\n").findIndex((line) => line.startsWith('{"o":"end"'));
    const edited = text.replace('"name":"Demo Loyalty Program"', '"name":7');
    writeFileSync(file, edited);
    expect(() => loadState(file)).toThrow(
      new StateFileError(
        file,
        `line ${end + 1}: the snapshot does not match its checksum (damaged or edited)`,
      ),
    );
    // Without a checksum every record is validated, as a fixture would be.
    writeFileSync(file, edited.replace(/\{"o":"end","sha256":"[0-9a-f]+"\}/, '{"o":"end"}'));
    expect(() => loadState(file)).toThrow(/state\.json: project demo, fixtures: \$\.campaigns\[0\]\.name: /);
    writeFileSync(file, text);
    const log = logFilesOf(file).at(-1)?.path as string;
    appendFileSync(
      log,
      '{"o":"put","p":"demo","c":"tokens","k":"t","r":{"access_token":"t"}}\n{"o":"commit"}\n',
    );
    expect(() => loadState(file)).toThrow(/state\.json: project demo, state: \$\.tokens\[\d+\]\.\w+: /);
  });

  it("reads a version-1 state file and rewrites it as a snapshot", async () => {
    const first = await start();
    await call(first, "POST", "/v1/oauth/token", "grant_type=client_credentials&scope=api", DEMO_KEYS);
    const expected = describe_(first.registry);
    await first.close();
    running.splice(0);
    for (const name of readdirSync(dir)) rmSync(join(dir, name));
    writeFileSync(file, serializeState(first.registry));

    const second = await start();
    expect(describe_(second.registry)).toEqual(expected);
    expect(readFileSync(file, "utf8").startsWith('{"o":"snapshot"')).toBe(true);
    expect(restartedFromDisk()).toEqual(expected);
  });
});
