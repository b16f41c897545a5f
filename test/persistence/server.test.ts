import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../src/config/settings.js";
import { trackChanges } from "../../src/http/entrance/track-changes.js";
import type { RunningServer } from "../../src/index.js";
import { loadState } from "../../src/persistence/load-state.js";
import { type SavedProject, StateFileError } from "../../src/persistence/state-file.js";
import { StateWriter } from "../../src/persistence/state-writer.js";
import { assertErrorBody } from "../helpers/contract.js";
import { useServer } from "../helpers/listen.js";
import { slowIo } from "../helpers/slow-io.js";
import { useStateFileServers } from "../helpers/state-file.js";
import { DEMO_KEYS } from "../helpers/world.js";

const disk = useStateFileServers("persist");
const start = disk.start;

async function issueToken(server: RunningServer): Promise<Response> {
  return fetch(`${server.url}/v1/oauth/token`, {
    method: "POST",
    headers: { ...DEMO_KEYS, "Content-Type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&scope=api",
  });
}

async function tokenOf(server: RunningServer): Promise<string> {
  const res = await issueToken(server);
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The state on disk right now (snapshot and log), read the way a restart reads it. */
function onDisk(): SavedProject[] {
  return loadState(disk.file)?.projects ?? [];
}

/** The demo tokens in the state file, as it is on disk right now. */
function savedTokens(): string[] {
  const demo = onDisk().find((project) => project.state.project.id === "demo");
  return demo?.state.tokens.map((token) => token.access_token) ?? [];
}

describe("startServer with a state file", () => {
  it("writes the file at start, and a restart restores what changed", async () => {
    const first = await start();
    expect(existsSync(disk.file)).toBe(true);
    const token = await tokenOf(first);
    await first.close();
    expect(savedTokens()).toEqual([token]);

    const second = await start();
    const res = await fetch(`${second.url}/v1/locations/loc_demo_circle`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    // Reset still goes back to the fixtures the projects were first made from.
    second.registry.reset("demo");
    expect(second.registry.get("demo").tokens.size).toBe(0);
  });

  it("restores from the file without reading the fixtures", async () => {
    await (await start()).close();
    const server = await start({ fixturesDir: join(disk.dir, "no-such-folder") });
    expect(server.registry.list().map((project) => project.id)).toEqual(["demo", "other"]);
  });

  it("interval mode: a change is saved later, or on save()", async () => {
    const server = await start({ stateSaveIntervalMs: 60_000 });
    const token = await tokenOf(server);
    expect(savedTokens()).toEqual([]);
    await server.save();
    expect(savedTokens()).toEqual([token]);
  });

  it("always mode: a change is on disk before its response arrives", async () => {
    const server = await start({ stateSync: "always" });
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) {
      tokens.push(await tokenOf(server));
      expect(savedTokens()).toEqual(tokens);
    }
  });

  it("always mode: a change that cannot be saved is answered 500 state_not_saved, and saved later", async () => {
    const server = await start({ stateSync: "always" });
    rmSync(disk.dir, { recursive: true, force: true });
    const refused = await issueToken(server);
    expect(refused.status).toBe(500);
    const body = await refused.json();
    assertErrorBody(body);
    expect(body).toMatchObject({
      code: 500,
      key: "state_not_saved",
      message: "State not saved",
      details:
        "The change could not be written to the state file (ENOENT); the server keeps trying to save it",
      request_id: refused.headers.get("x-request-id"),
    });

    mkdirSync(disk.dir);
    const token = await tokenOf(server);
    // The change of the refused request was made in memory; nothing is dropped, so it is saved too.
    expect(savedTokens()).toHaveLength(2);
    expect(savedTokens()).toContain(token);
  });

  it("PUT state is a change like any other", async () => {
    const server = await start({ stateSync: "always" });
    const state = (await (await fetch(`${server.url}/__mock/projects/other/state`)).json()) as {
      project: { name: string };
    };
    state.project.name = "Renamed";
    const res = await fetch(`${server.url}/__mock/projects/other/state`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(state),
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(onDisk())).toContain('"name":"Renamed"');
  });

  it("refuses to start from a broken file, and leaves it as it was", async () => {
    writeFileSync(disk.file, '{"format":"loyalty-mock-state","version":1,');
    await expect(start()).rejects.toThrow(/state\.json: line 1 column \d+: not valid JSON/);
    expect(readFileSync(disk.file, "utf8")).toBe('{"format":"loyalty-mock-state","version":1,');
  });

  it("refuses to start when the file's folder does not exist", async () => {
    disk.file = join(disk.dir, "missing", "state.json");
    await expect(start()).rejects.toThrow(new StateFileError(disk.file, "cannot be written (ENOENT)"));
  });
});

describe("change detection", () => {
  const listen = useServer();

  it("covers any route that may change state, including routes it knows nothing about", async () => {
    const state = { visits: 0 };
    const writer = new StateWriter({
      file: disk.file,
      sync: "always",
      intervalMs: DEFAULTS.stateSaveIntervalMs,
      snapshot: () => JSON.stringify(state),
    });
    const app = express();
    app.use(trackChanges(writer));
    app.get("/visits", (_req, res) => {
      res.json(state);
    });
    app.post("/visits", (_req, res) => {
      state.visits += 1;
      res.json(state);
    });
    app.delete("/visits", (_req, res) => {
      res.status(400).json({ refused: true });
    });

    await request(app).get("/visits");
    expect(existsSync(disk.file)).toBe(false);
    for (let i = 1; i <= 3; i++) {
      expect((await request(app).post("/visits")).body).toEqual({ visits: i });
      expect(JSON.parse(readFileSync(disk.file, "utf8"))).toEqual({ visits: i });
    }
    expect((await request(app).delete("/visits")).status).toBe(400);
    await writer.close();
  });

  it("in always mode holds a streamed answer, its status line included, until the save is on disk", async () => {
    const state = { imports: 0 };
    const slow = slowIo();
    const writer = new StateWriter({
      file: disk.file,
      sync: "always",
      intervalMs: DEFAULTS.stateSaveIntervalMs,
      snapshot: () => JSON.stringify(state),
      io: slow.io,
    });
    const app = express();
    app.use(trackChanges(writer));
    // As the state import answers: the change made, then the answer written a slice at a time.
    let handled: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => {
      handled = resolve;
    });
    app.put("/state", async (_req, res) => {
      state.imports += 1;
      res.status(200).setHeader("Content-Type", "application/json; charset=utf-8");
      const flowing = res.write('{"imports":');
      handled();
      if (!flowing) await new Promise((resolve) => res.once("drain", resolve));
      res.end(`${state.imports}}`);
    });
    const { url } = await listen(app);
    let answered = false;
    const answer = fetch(`${url}/state`, { method: "PUT" }).then(async (res) => {
      answered = true;
      return { status: res.status, body: await res.text() };
    });
    await reached;
    expect(await slow.next(writer)).toBe("held");
    // The save waits at its fsync: no status line may have reached the client yet.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    slow.release();
    expect(await answer).toEqual({ status: 200, body: '{"imports":1}' });
    expect(JSON.parse(readFileSync(disk.file, "utf8"))).toEqual({ imports: 1 });
    await writer.close();
  });
});
