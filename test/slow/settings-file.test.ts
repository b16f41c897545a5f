import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, freePort, killGroup, launch, ROOT, type Started, waitForStderr } from "../helpers/process.js";

/**
 * `--settings-file`, and `--env-file` (its name up to 0.8.0) refused in words, on every Node major `engines`
 * promises, with the real process: Node itself takes `--env-file` from anywhere on its command line, even after
 * the script's name, so what happens depends on Node, not on our parser (issue 34: 0.8.0's documented one-line
 * error never happened on Node 20 or 24; Node exited 9 with "node: missing.env: not found"). The other majors'
 * binaries come from ../shared/node/fetch-node.sh, as .ci/run gets them; without that folder only this Node runs.
 */
const MAIN = join(ROOT, "dist", "main.js");
const FETCH = join(ROOT, "..", "shared", "node", "fetch-node.sh");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
};
const MAJORS = manifest.engines.node.split(" || ").map((range) => Number(/^\^(\d+)\./.exec(range)?.[1]));
const here = Number(process.versions.node.split(".")[0]);

function nodeOf(major: number): string | undefined {
  if (major === here) return process.execPath;
  if (!existsSync(FETCH)) return undefined;
  return execFileSync(FETCH, [String(major)], { encoding: "utf8", timeout: 300_000 }).trim();
}

describe("--settings-file on every supported Node major", { timeout: 300_000 }, () => {
  let dir: string;
  const started: Started[] = [];
  beforeAll(() => {
    build();
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-settings-file-"));
  });
  afterAll(() => {
    for (const run of started) killGroup(run, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  for (const major of MAJORS)
    it.skipIf(major !== here && !existsSync(FETCH))(`Node ${major}`, async () => {
      const node = nodeOf(major) as string;
      expect(execFileSync(node, ["--version"], { encoding: "utf8" })).toMatch(new RegExp(`^v${major}\\.`));
      const port = await freePort();
      writeFileSync(join(dir, "ci.env"), `LOYALTY_MOCK_PORT=${port}\nLOYALTY_MOCK_LOG_LEVEL=silent\n`);

      // The settings the file gives reach the server.
      const run = launch(node, [MAIN, "--settings-file", "ci.env"], {}, dir);
      started.push(run);
      await waitForStderr(run, new RegExp(`listening on http://127\\.0\\.0\\.1:${port}\\n`));
      killGroup(run, "SIGTERM");
      expect((await run.exited).code).toBe(0);

      // The old spelling with a file that exists: Node passes it on, and loyalty-mock says what to type.
      const old = launch(node, [MAIN, "--env-file", "ci.env"], {}, dir);
      started.push(old);
      expect((await old.exited).code).toBe(2);
      expect(old.stderr()).toBe(
        "loyalty-mock: --env-file is now --settings-file (Node reads --env-file itself); run loyalty-mock --settings-file ci.env\n" +
          "Run loyalty-mock --help to see the options.\n",
      );

      // With a file that does not exist, Node stops before loyalty-mock runs (why the flag took a new name);
      // whichever speaks, the start fails naming the file, and never serves.
      const missing = launch(node, [MAIN, "--env-file", "missing.env"], {}, dir);
      started.push(missing);
      expect((await missing.exited).code).not.toBe(0);
      expect(missing.stderr()).toMatch(/missing\.env/);
      expect(missing.stderr()).not.toMatch(/listening on/);
    });
});
