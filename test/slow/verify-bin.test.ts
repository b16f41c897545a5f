import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/index.js";
import { SECRETS, startTarget, tempDir, writeConfig } from "../cli/verify-helpers.js";
import { build, launch, ROOT } from "../helpers/process.js";

/**
 * `loyalty-mock verify` as a CI job runs it: the built bin, the secrets in the environment, a recording made against
 * a second stand-in, then replayed once that target is gone. test/cli/verify.test.ts has the comparisons.
 */

const MAIN = join(ROOT, "dist", "main.js");
const ENV = { LOYALTY_MOCK_VERIFY_APP_ID: SECRETS.appId, LOYALTY_MOCK_VERIFY_APP_TOKEN: SECRETS.appToken };

async function bin(args: string[], env: Record<string, string> = {}) {
  const run = launch("node", [MAIN, ...args], env);
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe("the loyalty-mock verify bin", () => {
  let target: RunningServer | undefined;
  const temp = tempDir();
  const outputs: string[] = [];
  beforeAll(async () => {
    build();
    target = await startTarget();
  });
  afterAll(async () => {
    await target?.close();
    temp.remove();
  });

  it("--help names the subcommand, its flags and its secrets' variables", async () => {
    const help = await bin(["--help"]);
    expect(help.code).toBe(0);
    for (const text of [
      "loyalty-mock verify (--config <file> | --replay <recording>)",
      "--allow-writes",
      "LOYALTY_MOCK_VERIFY_APP_TOKEN",
    ])
      expect(help.stdout).toContain(text);
  });

  it("records against the target with the secrets from the environment, then replays with the target stopped", async () => {
    const config = writeConfig(temp.dir, target?.url ?? "", { secretsInFile: false });
    const recording = join(temp.dir, "recording.json");
    const recorded = await bin(
      ["verify", "--config", config, "--record", recording, "--json", join(temp.dir, "a.json")],
      ENV,
    );
    outputs.push(recorded.stdout, recorded.stderr);
    expect(recorded).toMatchObject({ code: 0, stderr: "" });
    expect(recorded.stdout).toMatch(/^16 matched, 0 differed, 0 skipped$/m);
    await target?.close();
    target = undefined;
    const replayed = await bin(["verify", "--replay", recording, "--json", join(temp.dir, "b.json")]);
    outputs.push(replayed.stdout, replayed.stderr);
    expect(replayed).toMatchObject({ code: 0, stderr: "" });
    expect(replayed.stdout).toMatch(/^16 matched, 0 differed, 0 skipped$/m);
    const report = JSON.parse(readFileSync(join(temp.dir, "b.json"), "utf8"));
    expect(report).toMatchObject({ matched: 16, differed: 0, skipped: 0 });
  });

  it("usage errors are exit 2; a target that does not answer is exit 3", async () => {
    const none = await bin(["verify"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      "loyalty-mock: verify: give --config <file> (the target and its objects), or --replay <recording>\nRun loyalty-mock verify --help to see the options.\n",
    );
    const both = await bin(["verify", "--config", "a.json", "--record", "r.json", "--replay", "r.json"]);
    expect(both.code).toBe(2);
    const config = writeConfig(temp.dir, "http://127.0.0.1:1", { secretsInFile: false });
    const gone = await bin(["verify", "--config", config], ENV);
    outputs.push(gone.stdout, gone.stderr);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/^loyalty-mock verify: stopped: http:\/\/127\.0\.0\.1:1 did not answer POST/);
  });

  it("no secret in any output or file (the configs here leave them to the environment)", () => {
    const everything = [...outputs, ...temp.files()].join("\n");
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
    expect(everything).toContain("<access_token>");
  });
});
