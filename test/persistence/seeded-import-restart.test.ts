import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Express } from "express";
import { describe, expect, it } from "vitest";
import { startFailure } from "../../src/cli/start-errors.js";
import { customerAlreadyJoined } from "../../src/domain/members/errors.js";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import { createApp, createRegistry, ManualClock, type RunningServer } from "../../src/index.js";
import { loadState } from "../../src/persistence/load-state.js";
import { logFilesOf } from "../../src/persistence/replay.js";
import { StateFileError, serializeState } from "../../src/persistence/state-file.js";
import { DEFAULT_FIXTURES_DIR } from "../../src/platform/fixtures.js";
import { control } from "../helpers/control.js";
import { send } from "../helpers/http.js";
import { useStateFileServers } from "../helpers/state-file.js";
import { DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 38, after a restart: a project posted from a document (POST /__mock/projects) draws past that document,
 * now and after each reset (registry.ts, id-streams.ts). The state file keeps that its fixtures were posted, so a
 * restart does too. Before, the mark lived in memory only: after a restart a reset drew from the start of the
 * seeded stream again, the next new customer took the id of a customer the posted export holds and replaced her,
 * and the join-once campaign gave her a second card.
 */

const disk = useStateFileServers("seeded-import-restart");
const SEED = "join-once-restart";

/** The card an assignment answers with, and whom it went to. */
interface Member {
  id: string;
  code: string;
  holder_id: string;
}

const joinLoyalty = (app: Express, sourceId: string) =>
  send(app, {
    method: "POST",
    path: "/v1/loyalties/camp_demo_loyalty/members",
    headers: DEMO_KEYS,
    body: { customer: { source_id: sourceId } },
  });

type Exported = Record<string, unknown>;

function seededRegistry(documents = loadProjectDocuments(DEFAULT_FIXTURES_DIR)) {
  return createRegistry({ clock: new ManualClock(), documents, seed: SEED });
}

/**
 * The export of the seeded demo project holding one new member, `first-customer`, whose id the demo's stream drew
 * from its start: what a reset of a demo posted from this export must never draw again.
 */
async function exportWithOneMember(): Promise<{ exported: Exported; first: Member }> {
  const app = createApp({ registry: seededRegistry() });
  const first = (await joinLoyalty(app, "first-customer")).body as Member;
  expect(first.holder_id).toEqual(expect.any(String));
  const exported = (await control(app, { method: "GET", path: "/__mock/projects/demo/state" })).body;
  return { exported: exported as Exported, first };
}

async function post(app: Express, document: unknown): Promise<void> {
  expect((await control(app, { method: "POST", path: "/__mock/projects", body: document })).status).toBe(201);
}

/** The demo project deleted and posted again from the export: the same id, so the same seeded stream. */
async function postInPlaceOfDemo(app: Express, exported: Exported): Promise<void> {
  expect((await control(app, { method: "DELETE", path: "/__mock/projects/demo" })).status).toBe(200);
  await post(app, exported);
}

async function reset(app: Express): Promise<void> {
  expect((await control(app, { method: "POST", path: "/__mock/projects/demo/reset" })).status).toBe(200);
}

/** After the reset: the next customer and card are new ones, and the first customer is still herself. */
async function joinsAfterReset(app: Express, first: Member): Promise<Member> {
  const second = await joinLoyalty(app, "second-customer");
  expect(second.status).toBe(200);
  const member = second.body as Member;
  expect(member.holder_id).not.toBe(first.holder_id);
  expect(member.id).not.toBe(first.id);
  expect(member.code).not.toBe(first.code);
  const again = await joinLoyalty(app, "first-customer");
  expect(again.status).toBe(400);
  expect(again.body).toMatchObject({ key: customerAlreadyJoined().key });
  return member;
}

/** The same steps on a seeded server without a state file, never restarted: what the restarted one must match. */
async function withoutRestart(exported: Exported, first: Member): Promise<Member> {
  const app = createApp({ registry: seededRegistry() });
  await postInPlaceOfDemo(app, exported);
  await reset(app);
  return joinsAfterReset(app, first);
}

const drawn = ({ id, code, holder_id }: Member) => ({ id, code, holder_id });

/** Posts the export to a server on the state file, restarted by `restart`, then resets it and joins. */
async function postedThenRestarted(restart: (server: RunningServer) => Promise<RunningServer>) {
  const { exported, first } = await exportWithOneMember();
  const server = await disk.start({ seed: SEED });
  await postInPlaceOfDemo(server.app, exported);
  const restarted = await restart(server);
  await reset(restarted.app);
  const member = await joinsAfterReset(restarted.app, first);
  expect(drawn(member)).toEqual(drawn(await withoutRestart(exported, first)));
  return { restarted, exported, first };
}

const logs = () => logFilesOf(disk.file).map((log) => log.path);

/** The lines that add project `id` (its fixtures), in the snapshot and then the logs, or in `files`. */
function fixturesLines(id: string, files = [disk.file, ...logs()]): Record<string, unknown>[] {
  return files.flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .filter((text) => text.startsWith(`{"o":"fixtures","p":${JSON.stringify(id)}`))
      .map((text) => JSON.parse(text) as Record<string, unknown>),
  );
}

/** A snapshot edited by hand, its checksum made again, as the server would have written it. */
function sealed(text: string): string {
  const end = text.indexOf('{"o":"end"');
  const sha256 = createHash("sha256").update(text.slice(0, end)).digest("hex");
  return `${text.slice(0, end)}${JSON.stringify({ o: "end", sha256 })}\n`;
}

describe("a posted project keeps drawing past its document after a restart (issue 38)", () => {
  it("restarted from the change log, then reset: the next customer is a new one, as without the restart", async () => {
    let read: unknown[] = [];
    await postedThenRestarted(async (server) => {
      await server.close();
      // What the restart reads: the first start's line, then the posted one in the log. Read here, as the restart
      // compacts in the background, which on a busy machine may already have rewritten the file by the end.
      read = fixturesLines("demo").map((line) => line.posted);
      return disk.restart(server, { seed: SEED });
    });
    expect(read).toEqual([undefined, true]);
  });

  it("restarted from a compacted snapshot: the same", async () => {
    await postedThenRestarted(async (server) => {
      // Saved first, so the compaction leaves no log holding the project's line: the snapshot's mark is read.
      await server.stateStore?.writer.flush();
      await server.stateStore?.compact();
      expect(fixturesLines("demo").map((line) => line.posted)).toEqual([true]);
      expect(fixturesLines("demo", logs())).toEqual([]);
      return disk.restart(server, { seed: SEED });
    });
  });

  it("restarted twice, the second from the snapshot the first restart wrote: the same", async () => {
    const { restarted } = await postedThenRestarted(async (server) => {
      const again = await disk.restart(server, { seed: SEED });
      await again.stateStore?.compact();
      return disk.restart(again, { seed: SEED });
    });
    expect(restarted.registry.fixturesPosted("demo")).toBe(true);
    expect(restarted.registry.fixturesPosted("other")).toBe(false);
  });

  it("a version-1 file (one document) carries the mark too, and is rewritten as a snapshot with it", async () => {
    await postedThenRestarted(async (server) => {
      const text = serializeState(server.registry);
      const saved = JSON.parse(text).projects as { posted?: boolean; state: { project: { id: string } } }[];
      expect(saved.map((p) => [p.state.project.id, p.posted])).toEqual([
        ["other", undefined],
        ["demo", true],
      ]);
      await server.close();
      for (const name of readdirSync(disk.dir)) rmSync(join(disk.dir, name));
      writeFileSync(disk.file, text);
      return disk.start({ seed: SEED });
    });
    expect(fixturesLines("demo").map((line) => line.posted)).toEqual([true]);
  });

  it("projects from the fixtures are written as before, without the field", async () => {
    const server = await disk.start({ seed: SEED });
    await server.stateStore?.compact();
    await server.close();
    expect(readFileSync(disk.file, "utf8")).not.toContain('"posted"');
    expect(serializeState(server.registry)).not.toContain('"posted"');
  });

  it("a project made from a template is marked as a posted one is: it too draws past its fixtures after a reset", async () => {
    const server = await disk.start({ seed: SEED });
    const made = await control(server.app, {
      method: "POST",
      path: "/__mock/projects",
      body: { template: "other", project_id: "copy" },
    });
    expect(made.status).toBe(201);
    const restarted = await disk.restart(server, { seed: SEED });
    expect(restarted.registry.fixturesPosted("copy")).toBe(true);
    expect(fixturesLines("copy").map((line) => line.posted)).toEqual([true]);
  });

  it("a file without the mark (0.8.0 and earlier) loads as before: the project resets as one from fixtures does", async () => {
    const { exported } = await exportWithOneMember();
    const server = await disk.start({ seed: SEED });
    await postInPlaceOfDemo(server.app, exported);
    await server.stateStore?.writer.flush();
    await server.stateStore?.compact();
    await server.close();
    // As 0.8.0 wrote them: the snapshot and the logs without the mark.
    const text = readFileSync(disk.file, "utf8");
    expect(text).toContain(',"posted":true}');
    writeFileSync(disk.file, sealed(text.replace(',"posted":true}', "}")));
    for (const log of logs()) writeFileSync(log, readFileSync(log, "utf8").replace(',"posted":true}', "}"));
    expect(fixturesLines("demo").map((line) => line.posted)).not.toContain(true);
    const restarted = await disk.start({ seed: SEED });
    expect(restarted.registry.fixturesPosted("demo")).toBe(false);
    await reset(restarted.app);
    const after = (await joinLoyalty(restarted.app, "second-customer")).body as Member;
    // Loaded from the same document as fixtures, a seeded server's reset draws the same: the start of the stream.
    const fixtures = createApp({ registry: seededRegistry([exported as never]) });
    await reset(fixtures);
    expect(drawn(after)).toEqual(drawn((await joinLoyalty(fixtures, "second-customer")).body as Member));
  });

  it("a mark of false reads as none", async () => {
    const server = await disk.start({ seed: SEED });
    await post(server.app, { project: { id: "p1" } });
    await server.close();
    const log = logFilesOf(disk.file).at(-1)?.path as string;
    writeFileSync(log, readFileSync(log, "utf8").replace('"posted":true', '"posted":false'));
    const restarted = await disk.start({ seed: SEED });
    expect(restarted.registry.fixturesPosted("p1")).toBe(false);
  });

  // Each row puts a wrong value where the mark goes; the start is refused, naming the file and the spot, exit 2.
  const HOSTILE: unknown[] = ["true", 1, null, {}, [true]];
  for (const value of HOSTILE)
    it(`refuses a mark that is not a boolean (${JSON.stringify(value)}), naming where, exit 2`, async () => {
      const server = await disk.start({ seed: SEED });
      await post(server.app, { project: { id: "p1" } });
      await server.close();
      const log = logFilesOf(disk.file).at(-1)?.path as string;
      const lines = readFileSync(log, "utf8").split("\n");
      const at = lines.findIndex((text) => text.startsWith('{"o":"fixtures","p":"p1"'));
      expect(lines[at]).toContain('"posted":true');
      lines[at] = (lines[at] as string).replace('"posted":true', `"posted":${JSON.stringify(value)}`);
      writeFileSync(log, lines.join("\n"));
      const commit = lines.indexOf('{"o":"commit"}', at) + 1;
      const error = new StateFileError(log, `batch ending on line ${commit}: $.posted: should be boolean`);
      expect(() => loadState(disk.file)).toThrow(error);
      const refused = await disk.start({ seed: SEED }).catch((caught: unknown) => caught);
      expect(refused).toEqual(error);
      expect(startFailure(refused).status).toBe(2);
    });

  it("refuses a wrong mark in a snapshot and in a version-1 file, naming where", async () => {
    const server = await disk.start({ seed: SEED });
    await post(server.app, { project: { id: "p1" } });
    const text = serializeState(server.registry);
    await server.stateStore?.compact();
    await server.close();
    // Sealed again: a checksum vouches for records the server wrote, never for a mark it cannot have written.
    const snapshot = sealed(readFileSync(disk.file, "utf8").replace(',"posted":true', ',"posted":"yes"'));
    writeFileSync(disk.file, snapshot);
    const line = snapshot.split("\n").findIndex((t) => t.startsWith('{"o":"fixtures","p":"p1"')) + 1;
    expect(() => loadState(disk.file)).toThrow(
      new StateFileError(disk.file, `line ${line}: $.posted: should be boolean`),
    );

    for (const name of readdirSync(disk.dir)) rmSync(join(disk.dir, name));
    expect(text).toContain('"posted":true');
    writeFileSync(disk.file, text.replace('"posted":true', '"posted":"yes"'));
    expect(() => loadState(disk.file)).toThrow(
      new StateFileError(disk.file, "$.projects[2].posted: should be boolean"),
    );
  });
});
