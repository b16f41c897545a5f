import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadState } from "../../src/persistence/load-state.js";
import {
  build,
  freePort,
  killGroup,
  launch,
  listeningOn,
  ROOT,
  type Started,
  waitForHttp,
  waitForStderr,
} from "../helpers/process.js";

/** The built command (`loyalty-mock`, dist/main.js) as a user runs it; test/cli/command-line.test.ts has its flag parsing. */

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

  /**
   * Starts the bin in `dir` (where its .env is) and says which port it took, as its own start line says (a port
   * answering could be another process's), once that port answers.
   */
  async function answeringPort(args: string[], env: Record<string, string | undefined>): Promise<number> {
    const run = launch("node", [MAIN, ...args], { LOYALTY_MOCK_LOG_LEVEL: "silent", ...env }, dir);
    started.push(run);
    const { base, port } = await listeningOn(run);
    await waitForHttp(`${base}/`, run);
    killGroup(run, "SIGTERM");
    expect((await run.exited).code).toBe(0);
    return port;
  }

  // Before 0.5.0 the bin read .env from its folder; now only the file --env-file names (issue 14).
  it("takes a flag over the environment, and the environment over --env-file; never an unnamed .env", async () => {
    // Four different ports, so that each source's is told apart.
    const distinct = new Set<number>();
    while (distinct.size < 4) distinct.add(await freePort());
    const [fromFile, fromEnv, fromFlag, fromDotEnv] = [...distinct] as [number, number, number, number];
    writeFileSync(join(dir, "mock.env"), `LOYALTY_MOCK_PORT=${fromFile}\n`);
    writeFileSync(join(dir, ".env"), `LOYALTY_MOCK_PORT=${fromDotEnv}\n`);
    const file = ["--env-file", "mock.env"];
    expect(
      await answeringPort([...file, "--port", String(fromFlag)], { LOYALTY_MOCK_PORT: String(fromEnv) }),
    ).toBe(fromFlag);
    expect(await answeringPort(file, { LOYALTY_MOCK_PORT: String(fromEnv) })).toBe(fromEnv);
    expect(await answeringPort(file, { LOYALTY_MOCK_PORT: undefined })).toBe(fromFile);
    expect(await answeringPort(["--port", String(fromFlag)], {})).toBe(fromFlag);
  });

  it("prints its address once on stderr at any log level; the names before 0.5.0 configure nothing", async () => {
    const run = launch(
      "node",
      [MAIN, "--port", "0"],
      { LOYALTY_MOCK_LOG_LEVEL: "silent", LOG_LEVEL: "debug", HOST: "0.0.0.0", MOCK_ADMIN_TOKEN: "t" },
      dir,
    );
    started.push(run);
    await waitForStderr(run, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
    killGroup(run, "SIGTERM");
    expect((await run.exited).code).toBe(0);
    expect(run.stderr()).toMatch(/^loyalty-mock listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(run.stdout()).toBe("");
  });

  const BAD: [string, string[], Record<string, string>, RegExp][] = [
    [
      "TRUST_PROXY=maybe",
      [],
      { LOYALTY_MOCK_TRUST_PROXY: "maybe" },
      /LOYALTY_MOCK_TRUST_PROXY: "maybe"; expected true, false/,
    ],
    [
      "HOST=notahost",
      [],
      { LOYALTY_MOCK_HOST: "notahost" },
      /LOYALTY_MOCK_HOST: "notahost"; expected an IP address/,
    ],
    [
      "a state file in a missing folder",
      ["--state-file", "/nowhere/at/all/s.json"],
      {},
      /LOYALTY_MOCK_STATE_FILE: "\/nowhere\/at\/all\/s\.json"; .*ENOENT.*; expected a file in an existing folder/,
    ],
    [
      "a .env line that does not parse",
      ["--env-file", "broken.env"],
      {},
      /--env-file: "broken\.env"; line 2 does not parse: "B=\\"x"; expected NAME=value/,
    ],
    [
      "a fixture project without api-keys.json",
      ["--fixtures", "keyless"],
      {},
      /LOYALTY_MOCK_FIXTURES_DIR: "keyless"; keyless\/shop\/api-keys\.json: \$: missing file/,
    ],
  ];
  for (const [name, args, env, line] of BAD)
    it(`${name}: one line naming the setting, exit status 2, no stack`, async () => {
      writeFileSync(join(dir, "broken.env"), 'A=1\nB="x\nLOYALTY_MOCK_PORT=0\n');
      mkdirSync(join(dir, "keyless", "shop"), { recursive: true });
      writeFileSync(join(dir, "keyless", "shop", "project.json"), '{"id": "shop"}');
      const run = launch(
        "node",
        [MAIN, "--port", "0", ...args],
        { LOYALTY_MOCK_LOG_LEVEL: "info", ...env },
        dir,
      );
      started.push(run);
      expect((await run.exited).code).toBe(2);
      expect(run.stderr()).toMatch(new RegExp(`^loyalty-mock: Invalid value for ${line.source}.*\n$`));
      expect(run.stderr().split("\n")).toHaveLength(2);
      expect(run.stdout()).toBe("");
    });

  it("--fixtures, --state-file and --log-level reach the server", async () => {
    const fixtures = join(dir, "fixtures");
    const stateFile = join(dir, "flags-state.json");
    mkdirSync(fixtures);
    writeFileSync(join(fixtures, "solo.json"), JSON.stringify({ project: { id: "solo" } }));
    const run = launch(
      "node",
      [MAIN, "--port", "0", "--fixtures", fixtures, "--state-file", stateFile, "--log-level", "error"],
      {
        LOYALTY_MOCK_LOG_LEVEL: "info",
        LOYALTY_MOCK_FIXTURES_DIR: "/nowhere",
        LOYALTY_MOCK_STATE_FILE: join(dir, "not-this.json"),
      },
      dir,
    );
    started.push(run);
    const { base } = await listeningOn(run);
    await waitForHttp(`${base}/`, run);
    const state = await fetch(`${base}/__mock/projects/solo/state`);
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
