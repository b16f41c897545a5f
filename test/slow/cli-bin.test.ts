import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadState } from "../../src/persistence/load-state.js";
import { build, freePort, killGroup, launch, ROOT, type Started, waitForHttp } from "../helpers/process.js";

/** The built command (`loyalty-mock`, dist/main.js) as a user runs it; test/cli.test.ts has its flag parsing. */

const MAIN = join(ROOT, "dist", "main.js");

describe("the loyalty-mock bin", () => {
  let dir: string;
  const started: Started[] = [];
  beforeAll(() => {
    build();
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-cli-"));
  });
  afterAll(() => {
    for (const process of started) killGroup(process, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("is dist/main.js, a node script", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(manifest.bin).toEqual({ "loyalty-mock": "dist/main.js" });
    expect(readFileSync(MAIN, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  it("--help prints the options and exits 0", async () => {
    const run = launch("node", [MAIN, "--help"], {});
    expect((await run.exited).code).toBe(0);
    for (const flag of [
      "--port",
      "--host",
      "--fixtures",
      "--state-file",
      "--log-level",
      "--admin-token",
      "--help",
    ])
      expect(run.stdout()).toContain(flag);
  });

  it("an unknown flag stops it with a clear message and exit code 2", async () => {
    const run = launch("node", [MAIN, "--prot", "3000"], {});
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toBe(
      "loyalty-mock: Unknown option '--prot'\nRun loyalty-mock --help to see the options.\n",
    );
  });

  /** Starts the bin in `dir` (where its .env is) and says which of the ports answers. */
  async function answeringPort(
    args: string[],
    env: Record<string, string | undefined>,
    ports: number[],
  ): Promise<number> {
    const run = launch("node", [MAIN, ...args], { LOG_LEVEL: "silent", ...env }, dir);
    started.push(run);
    const answers = await Promise.race([
      Promise.any(
        ports.map((port) => waitForHttp(`http://127.0.0.1:${port}/`, run, 20_000).then(() => port)),
      ),
      run.exited.then(() => {
        throw new Error(`exited early: ${run.stderr()}`);
      }),
    ]);
    killGroup(run, "SIGTERM");
    expect((await run.exited).code).toBe(0);
    return answers;
  }

  it("takes a flag over the environment, and the environment over .env", async () => {
    const [fromFile, fromEnv, fromFlag] = [await freePort(), await freePort(), await freePort()];
    writeFileSync(join(dir, ".env"), `PORT=${fromFile}\n`);
    const ports = [fromFile, fromEnv, fromFlag];
    expect(await answeringPort(["--port", String(fromFlag)], { PORT: String(fromEnv) }, ports)).toBe(
      fromFlag,
    );
    expect(await answeringPort([], { PORT: String(fromEnv) }, ports)).toBe(fromEnv);
    expect(await answeringPort([], { PORT: undefined }, ports)).toBe(fromFile);
  });

  it("--fixtures, --state-file and --log-level reach the server", async () => {
    const port = await freePort();
    const fixtures = join(dir, "fixtures");
    const stateFile = join(dir, "flags-state.json");
    mkdirSync(fixtures);
    writeFileSync(join(fixtures, "solo.json"), JSON.stringify({ project: { id: "solo" } }));
    const run = launch(
      "node",
      [
        MAIN,
        "--port",
        String(port),
        "--fixtures",
        fixtures,
        "--state-file",
        stateFile,
        "--log-level",
        "error",
      ],
      { LOG_LEVEL: "info", FIXTURES_DIR: "/nowhere", STATE_FILE: join(dir, "not-this.json") },
      dir,
    );
    started.push(run);
    await waitForHttp(`http://127.0.0.1:${port}/`, run);
    const state = await fetch(`http://127.0.0.1:${port}/__mock/projects/solo/state`);
    expect(state.status).toBe(200);
    // The state file (format 2: a snapshot and its log) read the way a restart reads it.
    expect(loadState(stateFile)?.projects[0]?.state.project.id).toBe("solo");
    expect(existsSync(join(dir, "not-this.json"))).toBe(false);
    killGroup(run, "SIGTERM");
    expect((await run.exited).code).toBe(0);
    // At error, neither the start nor the 404 of the wait are logged.
    expect(run.stdout()).toBe("");
  });
});
