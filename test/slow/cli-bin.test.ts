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

  for (const command of [[], ["wait"], ["webhooks", "listen"], ["webhooks"], ["verify"]])
    it(`loyalty-mock ${[...command, "--help"].join(" ")} prints its usage, flags and an example, and exits 0`, async () => {
      const run = launch("node", [MAIN, ...command, "--help"], {});
      expect((await run.exited).code).toBe(0);
      expect(run.stdout()).toMatch(/^Usage: loyalty-mock /);
      expect(run.stdout()).toMatch(/\nOptions:\n[\s\S]*--help[\s\S]*\nExamples?:\n {2}\S/);
      expect(run.stderr()).toBe("");
    });

  it("an unknown flag stops it with a clear message and exit code 2", async () => {
    const run = launch("node", [MAIN, "--prot", "3000"], {});
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toBe(
      "loyalty-mock: Unknown option '--prot'; did you mean --port?\nRun loyalty-mock --help to see the options.\n",
    );
  });

  it("play with a user name and password in --url: exit 2, neither of them printed", async () => {
    const run = launch(
      "node",
      [MAIN, "play", "first-month", "--url", "http://alice-user:pa55-word@127.0.0.1:1"],
      {},
    );
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toBe(
      "loyalty-mock: play: invalid value for --url: must not hold a user name or password (user:pw@); the key pair goes in --app-id and --app-token\nRun loyalty-mock play --help to see the options.\n",
    );
    expect(run.stdout()).toBe("");
  });

  it("a date without an accepted form is refused with an example of one; a date alone is its midnight UTC", async () => {
    const refused = launch("node", [MAIN, "--freeze-clock", "2026-01-01T09:00"], {});
    expect((await refused.exited).code).toBe(2);
    expect(refused.stderr()).toBe(
      'loyalty-mock: Invalid value for --freeze-clock: "2026-01-01T09:00"; expected an ISO 8601 instant with its zone, as in 2026-01-01T09:00:00Z, or a date, as in 2026-01-01 (midnight UTC)\nRun loyalty-mock --help to see the options.\n',
    );
    const run = launch(
      "node",
      [MAIN, "--port", "0", "--freeze-clock", "2026-01-01"],
      { LOYALTY_MOCK_LOG_LEVEL: "silent" },
      dir,
    );
    started.push(run);
    const [, url] = await waitForStderr(run, /frozen at .*\n/).then(() =>
      waitForStderr(run, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/),
    );
    const clock = await (await fetch(`${url}/__mock/projects/demo/clock`)).json();
    expect(clock).toMatchObject({ now: "2026-01-01T00:00:00.000Z", frozen: true });
    expect(run.stderr()).toContain("loyalty-mock: every project clock frozen at 2026-01-01T00:00:00.000Z\n");
    killGroup(run, "SIGTERM");
    expect((await run.exited).code).toBe(0);
  });

  it("on 0.0.0.0 it names an address to open: loopback first, then this machine's others", async () => {
    const run = launch(
      "node",
      [MAIN, "--port", "0", "--host", "0.0.0.0"],
      { LOYALTY_MOCK_LOG_LEVEL: "silent" },
      dir,
    );
    started.push(run);
    await waitForStderr(run, /listening on every address \(0\.0\.0\.0\)[^\n]*\n/);
    const [first, second] = run.stderr().split("\n");
    expect(first).toMatch(/^loyalty-mock listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(second).toMatch(
      /^loyalty-mock: listening on every address \(0\.0\.0\.0\)(: also http:\/\/[\d.]+:\d+(, http:\/\/[\d.]+:\d+)*|; this machine has no other address than loopback)$/,
    );
    const url = /(http:\S+)$/.exec(first as string)?.[1];
    expect((await fetch(`${url}/__mock/health`)).status).toBe(200);
    killGroup(run, "SIGTERM");
    expect((await run.exited).code).toBe(0);
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

  // Before 0.5.0 the bin read .env from its folder; now only the file --settings-file names (issue 14).
  it("takes a flag over the environment, and the environment over --settings-file; never an unnamed .env", async () => {
    // Four different ports, so that each source's is told apart.
    const distinct = new Set<number>();
    while (distinct.size < 4) distinct.add(await freePort());
    const [fromFile, fromEnv, fromFlag, fromDotEnv] = [...distinct] as [number, number, number, number];
    writeFileSync(join(dir, "mock.env"), `LOYALTY_MOCK_PORT=${fromFile}\n`);
    writeFileSync(join(dir, ".env"), `LOYALTY_MOCK_PORT=${fromDotEnv}\n`);
    const file = ["--settings-file", "mock.env"];
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
      /--state-file: "\/nowhere\/at\/all\/s\.json"; .*ENOENT.*; expected a file in an existing folder/,
    ],
    [
      "a .env line that does not parse",
      ["--settings-file", "broken.env"],
      {},
      /--settings-file: "broken\.env"; line 2 does not parse: "B=\\"x"; expected NAME=value/,
    ],
    [
      "a fixture project without api-keys.json",
      ["--fixtures", "keyless"],
      {},
      /--fixtures: "keyless"; keyless\/shop\/api-keys\.json: \$: missing file/,
    ],
    [
      "the same folder from the environment",
      [],
      { LOYALTY_MOCK_FIXTURES_DIR: "keyless" },
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
