import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  build,
  killGroup,
  launch,
  listeningOn,
  ROOT,
  type Started,
  waitForStderr,
} from "../helpers/process.js";

/**
 * Issue 44: the image's health check (dist/cli/health-main.js) took any earlier process whose arguments ended in
 * `dist/main.js` for the server. Here, as processes on this machine (the container tier runs the image): a decoy
 * such as that starts first, then the server on a port of its own choosing with an admin token from a flag, and the
 * check, given only the health file's variable, follows the server.
 */

const MAIN = join(ROOT, "dist", "main.js");
const CHECK = join(ROOT, "dist", "cli", "health-main.js");

describe("the health check, as the image runs it", () => {
  let dir: string;
  const started: Started[] = [];
  const start = (args: string[], env: Record<string, string> = {}) => {
    const process = launch("node", args, env);
    started.push(process);
    return process;
  };
  const check = async (env: Record<string, string>) => {
    const run = launch("node", [CHECK], env);
    const { code } = await run.exited;
    return { code, stderr: run.stderr() };
  };

  beforeAll(() => {
    build();
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-health-"));
  });
  afterAll(() => {
    for (const process of started) killGroup(process, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("follows the server's own port (even one it chose) and token, not an earlier process named like it", async () => {
    const file = join(dir, "health.json");
    const env = { LOYALTY_MOCK_HEALTH_FILE: file };
    // Arguments as 0.10.0's check looked for them: `…/dist/main.js` and flags. It would have probed port 1.
    start(["-e", "setInterval(() => {}, 60000)", "/elsewhere/dist/main.js", "--port", "1"]);
    const server = start([MAIN, "--port", "0", "--admin-token", "from-a-flag"], {
      ...env,
      LOYALTY_MOCK_EXIT_WITH_PARENT: "false",
    });
    await listeningOn(server);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The check's own environment names another port and token: the server's file decides.
    expect(await check({ ...env, LOYALTY_MOCK_PORT: "1", LOYALTY_MOCK_ADMIN_TOKEN: "wrong" })).toEqual({
      code: 0,
      stderr: "",
    });

    // A second server in the same place leaves the file to the first.
    const second = start([MAIN, "--port", "0"], { ...env, LOYALTY_MOCK_EXIT_WITH_PARENT: "false" });
    await waitForStderr(
      second,
      /warning: .* belongs to another running server \(pid \d+\): the health check follows that one/,
    );
    expect((await check(env)).code).toBe(0);
    killGroup(second);
    await second.exited;
    expect(existsSync(file)).toBe(true);

    // Stopped, the server takes its file with it: the check says so rather than probing a port.
    killGroup(server);
    expect((await server.exited).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    const after = await check(env);
    expect(after.code).toBe(1);
    expect(after.stderr).toBe(
      `loyalty-mock health: no server has written ${file}: it is starting, could not write it (its log says why), or has stopped\n`,
    );
  });

  it("a server that cannot write the file serves, and says why the check will not find it", async () => {
    const file = join(dir, "missing", "health.json");
    const server = start([MAIN, "--port", "0"], {
      LOYALTY_MOCK_HEALTH_FILE: file,
      LOYALTY_MOCK_EXIT_WITH_PARENT: "false",
    });
    const { base } = await listeningOn(server);
    await waitForStderr(
      server,
      /warning: could not write the health file .*: the health check cannot find this server/,
    );
    expect((await fetch(`${base}/__mock/health`)).status).toBe(200);
  });
});
