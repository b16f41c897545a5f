import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { createGzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STEPS } from "../../src/cli/verify/steps.js";
import type { RunningServer } from "../../src/index.js";
import { startHostile, stream } from "../cli/hostile-target.js";
import { SECRETS, startTarget, tempDir, writeConfig } from "../cli/verify-helpers.js";
import { build, launch, ROOT } from "../helpers/process.js";

/**
 * `loyalty-mock verify` as a CI job runs it: the built bin, the secrets in the environment, a recording made against
 * a second stand-in, then replayed once that target is gone. test/cli/verify.test.ts has the comparisons.
 */

const MAIN = join(ROOT, "dist", "main.js");
const ENV = { LOYALTY_MOCK_VERIFY_APP_ID: SECRETS.appId, LOYALTY_MOCK_VERIFY_APP_TOKEN: SECRETS.appToken };

async function bin(args: string[], env: Record<string, string> = {}, node: string[] = []) {
  const run = launch("node", [...node, MAIN, ...args], env);
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
    expect(recorded.stdout).toMatch(new RegExp(`^${STEPS.length} matched, 0 differed, 0 skipped$`, "m"));
    await target?.close();
    target = undefined;
    const replayed = await bin(["verify", "--replay", recording, "--json", join(temp.dir, "b.json")]);
    outputs.push(replayed.stdout, replayed.stderr);
    expect(replayed).toMatchObject({ code: 0, stderr: "" });
    expect(replayed.stdout).toMatch(new RegExp(`^${STEPS.length} matched, 0 differed, 0 skipped$`, "m"));
    const report = JSON.parse(readFileSync(join(temp.dir, "b.json"), "utf8"));
    expect(report).toMatchObject({ matched: STEPS.length, differed: 0, skipped: 0 });
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

  it.each<[string, (res: ServerResponse) => void, string]>([
    [
      "1 GB of JSON",
      (res) => {
        res.writeHead(200, { "content-type": "application/json" });
        stream(res, Buffer.from(`"${"x".repeat(65_534)}"`), 1024 * 1024 * 1024);
      },
      "is more than 8388608 bytes",
    ],
    [
      "an answer without end",
      (res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        stream(res, Buffer.alloc(65_536, "y"));
      },
      "is more than 8388608 bytes",
    ],
    [
      "a gzip inflating without end",
      (res) => {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        const gzip = createGzip();
        gzip.pipe(res);
        stream(gzip as unknown as ServerResponse, Buffer.alloc(1024 * 1024));
      },
      "decodes to more than 8388608 bytes",
    ],
  ])("%s on a heap of 96 MB: exit 3 within seconds, saying why", async (_case, send, reason) => {
    const hostile = await startHostile(undefined, (_req, res) => send(res));
    try {
      const started = Date.now();
      const config = writeConfig(temp.dir, hostile.url, { secretsInFile: false });
      const ran = await bin(["verify", "--config", config], ENV, ["--max-old-space-size=96"]);
      outputs.push(ran.stdout, ran.stderr);
      expect(ran.code).toBe(3);
      expect(ran.stderr).toContain(`stopped: the answer to POST /v1/oauth/token ${reason}`);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await hostile.close();
    }
  });

  it("no secret in any output or file (the configs here leave them to the environment)", () => {
    const everything = [...outputs, ...temp.files()].join("\n");
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
    expect(everything).toContain("<access_token>");
  });
});
