import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/index.js";
import { serializeState } from "../../src/persistence/state-file.js";
import { buildWorld } from "../helpers/world.js";

/**
 * Issue 39: state files that 0.8.0 and earlier wrote. They held an incentive's 64-bit fields as doubles: the int64
 * maximum 9223372036854775807, the example, was kept as 2^63 and written 9223372036854776000, now past the
 * range, which stopped the server from starting from its own file. It is read as the maximum it stood for. Other
 * values keep the digits that version answered with (a double's shortest spelling, 1152921504606847000), in both
 * file formats. The values are placed as text: JSON.stringify could not write them.
 */
const POINTS = "linc_d0000000000000101";
const GIFT = "linc_d0000000000000032";
const OLDER_MAX = "9223372036854776000";
const INT64_MAX = "9223372036854775807";
const SHORTEST = "1152921504606847000";

let dir: string;
let file: string;
const running: RunningServer[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-older-int64-"));
  file = join(dir, "state.json");
});
afterEach(async () => {
  for (const server of running.splice(0)) await server.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<RunningServer> {
  const server = await startServer({ port: 0, stateFile: file, stateSync: "always" });
  running.push(server);
  return server;
}

async function text(server: RunningServer, path: string): Promise<string> {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status, path).toBe(200);
  return res.text();
}

/** Sets the two incentives' fields to markers, in a document's (or a record list's) incentives. */
function mark(incentives: { id: string; points?: { value: unknown }; digital?: unknown }[]): void {
  for (const incentive of incentives) {
    if (incentive.id === POINTS) (incentive.points as { value: unknown }).value = 777000111;
    if (incentive.id === GIFT)
      (incentive.digital as { gift_vouchers: { balance: unknown } }).gift_vouchers.balance = 777000222;
  }
}

const asOlderServers = (written: string) =>
  written.replaceAll("777000111", OLDER_MAX).replaceAll("777000222", SHORTEST);

async function expectRead(server: RunningServer): Promise<void> {
  expect(await text(server, `/__mock/projects/demo/incentives/${POINTS}`)).toContain(
    `"points":{"value":${INT64_MAX},`,
  );
  expect(await text(server, `/__mock/projects/demo/incentives/${GIFT}`)).toContain(`"balance":${SHORTEST}}`);
  const exported = await text(server, "/__mock/projects/demo/state");
  expect(exported).not.toContain(OLDER_MAX);
  expect(exported).toContain(`"value":${INT64_MAX}`);
}

describe("64-bit integers in a state file an earlier version wrote", () => {
  it("version 2 (a snapshot and its change log): 9223372036854776000 is the int64 maximum", async () => {
    const server = await start();
    const document = JSON.parse(await text(server, "/__mock/projects/demo/state"));
    mark(document.incentives);
    const put = await fetch(`${server.url}/__mock/projects/demo/state`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(document),
    });
    expect(put.status).toBe(200);
    await server.close();
    // Every line that holds them, in the snapshot and in the log, as 0.8.0 wrote its doubles.
    const files = readdirSync(dir).map((name) => join(dir, name));
    let changed = 0;
    for (const path of files) {
      const before = readFileSync(path, "utf8");
      const after = asOlderServers(before);
      if (after !== before) changed++;
      writeFileSync(path, after);
    }
    expect(changed).toBeGreaterThan(0);
    await expectRead(await start());
  });

  it("version 1 (0.4.0 and earlier, one document): the same, in the fixtures and the state", async () => {
    const saved = JSON.parse(serializeState(buildWorld().registry));
    for (const project of saved.projects) {
      mark(project.fixtures.incentives);
      mark(project.state.incentives);
    }
    writeFileSync(file, asOlderServers(JSON.stringify(saved)));
    const server = await start();
    await expectRead(server);
    // A reset goes back to the fixtures the file held, read the same way.
    const reset = await fetch(`${server.url}/__mock/projects/demo/reset`, { method: "POST" });
    expect(reset.status).toBe(200);
    await expectRead(server);
  });
});
