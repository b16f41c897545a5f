import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, killGroup, launch, ROOT, type Started, waitForStderr } from "../helpers/process.js";

/**
 * The real bin, started the ways users start it. Issue 25: it never outlives the process that started it (a
 * shell killed with SIGKILL, or the script above that shell), unless told to stay; issue 47: nor one that had
 * exited before it started (`bash -c '... & exit 0'`), though a server started on purpose by a namespace's init
 * stays. Issue 29: listening off loopback without an admin token, it says so once on stderr, and health says
 * whether control asks for a token.
 */
const LISTENING = /loyalty-mock listening on (http:\/\/[^\s]+)\n/;
const WARNING =
  /^loyalty-mock: warning: the control API \(\/__mock\) and the dashboard answer anyone .*LOYALTY_MOCK_ADMIN_TOKEN to require a token$/m;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started: Started[] = [];

/** The server's URL reached on loopback, whatever address it listens on. */
async function urlOf(run: Started): Promise<string> {
  const [, url] = await waitForStderr(run, LISTENING);
  return (url as string).replace("0.0.0.0", "127.0.0.1");
}

async function answers(url: string, headers: Record<string, string> = {}): Promise<number | undefined> {
  try {
    const res = await fetch(`${url}/__mock/health`, { headers });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return undefined;
  }
}

/** Whether the server stops answering within `ms`. */
async function stopsWithin(url: string, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await pause(50))
    if ((await answers(url)) === undefined) return true;
  return false;
}

beforeAll(() => build(), 120_000);
afterAll(() => {
  for (const run of started) {
    try {
      // The group outlives its leader here: the server may be an orphan of a killed shell.
      if (run.child.pid !== undefined) process.kill(-run.child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

function start(command: string, env: Record<string, string> = {}): Started {
  const run = launch("bash", ["-c", command], { LOYALTY_MOCK_LOG_LEVEL: "silent", ...env });
  started.push(run);
  return run;
}

describe("the open control API warning and health's control (issue 29)", () => {
  it("warns once for 0.0.0.0 without a token; health says open", async () => {
    const run = start("exec node dist/main.js --port 0 --host 0.0.0.0");
    const url = await urlOf(run);
    await waitForStderr(run, WARNING);
    const res = await fetch(`${url}/__mock/health`);
    expect(((await res.json()) as { control: string }).control).toBe("open");
    killGroup(run);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stderr().match(new RegExp(WARNING, "gm"))).toHaveLength(1);
  });

  it("says nothing on 127.0.0.1, nor on 0.0.0.0 with a token; health says token", async () => {
    const loopback = start("exec node dist/main.js --port 0 --host 127.0.0.1");
    const withToken = start("exec node dist/main.js --port 0 --host 0.0.0.0", {
      LOYALTY_MOCK_ADMIN_TOKEN: "s3cret",
    });
    await urlOf(loopback);
    const url = await urlOf(withToken);
    const res = await fetch(`${url}/__mock/health`, { headers: { "X-Mock-Admin-Token": "s3cret" } });
    expect(((await res.json()) as { control: string }).control).toBe("token");
    for (const run of [loopback, withToken]) {
      killGroup(run);
      expect(await run.exited).toEqual({ code: 0, signal: null });
      // The address line on 0.0.0.0 (an address to open, not a warning), and nothing else.
      expect(run.stderr()).toMatch(
        /^loyalty-mock listening on http:\/\/[^\n]+\n(loyalty-mock: listening on every address \(0\.0\.0\.0\)[^\n]*\n)?$/,
      );
    }
  });
});

describe("never outliving the launcher (issue 25)", { timeout: 30_000 }, () => {
  it("stops, as on SIGTERM, when the shell that started it is killed with SIGKILL", async () => {
    // `; true` keeps the shell from exec-ing node: the server is its child.
    const run = start("node dist/main.js --port 0; true");
    const url = await urlOf(run);
    run.child.kill("SIGKILL");
    expect(await stopsWithin(url, 5000)).toBe(true);
  });

  it("stops when the script above its parent exits, the parent left waiting on it", async () => {
    const run = start("sh -c 'node dist/main.js --port 0; true' & sleep 120");
    const url = await urlOf(run);
    run.child.kill("SIGKILL");
    expect(await stopsWithin(url, 5000)).toBe(true);
  });

  it("stays with --exit-with-parent false, and with LOYALTY_MOCK_EXIT_WITH_PARENT=false", async () => {
    const flag = start("node dist/main.js --port 0 --exit-with-parent false; true");
    const variable = start("node dist/main.js --port 0; true", { LOYALTY_MOCK_EXIT_WITH_PARENT: "false" });
    const urls = [await urlOf(flag), await urlOf(variable)];
    flag.child.kill("SIGKILL");
    variable.child.kill("SIGKILL");
    await pause(2000);
    for (const url of urls) expect(await answers(url)).toBe(200);
  });
});

/** The processes whose environment holds LAUNCHER_TEST_MARK=mark: what a test started, wherever it went. */
function marked(mark: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(`LAUNCHER_TEST_MARK=${mark}`))
        pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

const marks: string[] = [];
afterAll(() => {
  for (const pid of marks.flatMap(marked))
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
});

/** `bash -c 'COMMAND & exit 0'`: the script that starts the server exits at once; the run's mark in its env. */
function startAndLeave(command: string, cwd = ROOT): { run: Started; mark: string } {
  const mark = `${process.pid}-${marks.length}`;
  marks.push(mark);
  const run = launch("bash", ["-c", `${command} & exit 0`], { LAUNCHER_TEST_MARK: mark, ...NPM }, cwd);
  started.push(run);
  return { run, mark };
}

const NPM = { npm_config_offline: "true", npm_config_update_notifier: "false" };

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await pause(50)) if (condition()) return true;
  return condition();
}

/** An application's folder with this build installed, so that `npx loyalty-mock` runs it (as npm 11 does). */
function appFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-launcher-"));
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(ROOT, join(dir, "node_modules", "loyalty-mock"));
  const bin = join(dir, "node_modules", ".bin", "loyalty-mock");
  writeFileSync(bin, `#!/bin/sh\nexec node ${JSON.stringify(join(ROOT, "dist", "main.js"))} "$@"\n`, {
    mode: 0o755,
  });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", private: true }));
  return dir;
}

/** Whether this machine lets the test make a PID namespace (root, and a kernel that allows it). */
const namespaces = spawnSync("unshare", ["-pf", "--mount-proc", "true"]).status === 0;
const tini = spawnSync("tini", ["--version"]).status === 0;

describe("a launcher already gone when the server starts (issue 47)", { timeout: 30_000 }, () => {
  const NOT_STARTING =
    /^loyalty-mock: not starting: the process that started (it|npm|bash) had already exited .*--exit-with-parent false keeps a server whose launcher has exited\n/m;
  let app: string;
  beforeAll(() => {
    app = appFolder();
  });
  afterAll(() => rmSync(app, { recursive: true, force: true }));

  it("node dist/main.js: says so in one line and stops, holding no port", async () => {
    const { run, mark } = startAndLeave("node dist/main.js --port 0");
    expect(await until(() => NOT_STARTING.test(run.stderr()), 10_000)).toBe(true);
    expect(run.stderr()).toMatch(/started it had already exited \(its parent is now process \d+\)/);
    expect(run.stderr()).not.toMatch(/listening/);
    expect(await until(() => marked(mark).length === 0, 5000)).toBe(true);
  });

  it("npx loyalty-mock: npm, its shell and the server are all gone within 5 s", async () => {
    const { run, mark } = startAndLeave("npx loyalty-mock --port 0", app);
    // The refusal first: until bash has exec'd, no process carries the mark, so "none left" alone can hold at once.
    expect(
      await until(() => NOT_STARTING.test(run.stderr()) && marked(mark).length === 0, 5000 + 10_000),
    ).toBe(true);
    expect(run.stderr()).toMatch(NOT_STARTING);
    expect(run.stderr()).toMatch(/the process that started npm had already exited \(npm, process \d+,/);
  });

  it("npx in a subshell that is left: the subshell, npm and the server are all gone within 5 s", async () => {
    const { run, mark } = startAndLeave(`(cd ${JSON.stringify(app)} && npx loyalty-mock --port 0; true)`);
    expect(
      await until(() => NOT_STARTING.test(run.stderr()) && marked(mark).length === 0, 5000 + 10_000),
    ).toBe(true);
    expect(run.stderr()).toMatch(/the process that started bash had already exited \(bash, process \d+,/);
  });

  it("stays with --exit-with-parent false, as the CI guide's GitHub Actions step starts it", async () => {
    const { run, mark } = startAndLeave("npx loyalty-mock --port 0 --exit-with-parent false", app);
    // Read as it comes: the script (the child this test waits on) has exited long before.
    expect(await until(() => LISTENING.test(run.stderr()), 15_000)).toBe(true);
    const url = LISTENING.exec(run.stderr())?.[1] as string;
    await pause(2000);
    expect(await answers(url)).toBe(200);
    expect(marked(mark).length).toBeGreaterThan(0);
    for (const pid of marked(mark)) process.kill(pid, "SIGTERM");
    expect(await stopsWithin(url, 5000)).toBe(true);
  });

  it.skipIf(!namespaces)(
    "stays as PID 1 of a PID namespace, and as the child of a shell or tini that is",
    async () => {
      const runs = [
        start("exec unshare -pf --mount-proc node dist/main.js --port 0"),
        start("exec unshare -pf --mount-proc sh -c 'node dist/main.js --port 0; true'"),
        ...(tini ? [start("exec unshare -pf --mount-proc tini -- node dist/main.js --port 0")] : []),
      ];
      const urls = await Promise.all(runs.map(urlOf));
      await pause(1500);
      for (const url of urls) expect(await answers(url)).toBe(200);
      for (const run of runs) killGroup(run);
      for (const url of urls) expect(await stopsWithin(url, 5000)).toBe(true);
    },
  );
});
