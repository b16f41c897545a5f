import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, killGroup, launch, type Started, waitForStderr } from "../helpers/process.js";

/**
 * The real bin, started the ways users start it. Issue 25: it never outlives the process that started it (a
 * shell killed with SIGKILL, or the script above that shell), unless told to stay. Issue 29: listening off
 * loopback without an admin token, it says so once on stderr, and health says whether control asks for a token.
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
