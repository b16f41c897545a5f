import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, killGroup, launch, ROOT, type Started, waitForStderr } from "../helpers/process.js";
import { DEMO_KEYS } from "../helpers/world.js";

/** Issue 28 through the built command: the seed's line on stderr, and two bins with one seed answering alike. */

const MAIN = join(ROOT, "dist", "main.js");
const started: Started[] = [];

beforeAll(() => build());
afterAll(() => {
  for (const process of started) killGroup(process, "SIGKILL");
});

async function startBin(args: string[], env: Record<string, string | undefined> = {}) {
  const run = launch("node", [MAIN, "--port", "0", ...args], { LOYALTY_MOCK_LOG_LEVEL: "silent", ...env });
  started.push(run);
  const [, url] = await waitForStderr(run, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
  return { run, url: url as string };
}

async function tokenAnswer(url: string) {
  const res = await fetch(`${url}/v1/oauth/token`, {
    method: "POST",
    headers: { ...DEMO_KEYS, "Content-Type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&scope=api",
  });
  return { requestId: res.headers.get("x-request-id"), body: await res.text() };
}

describe("loyalty-mock --seed and --freeze-clock", () => {
  it("says on stderr that a seed is in use, after the address line, and answers as another seeded bin does", async () => {
    // The same instant typed in another zone: the line says the instant held, in UTC (issue 47).
    const args = ["--seed", "ci", "--freeze-clock", "2026-01-01T02:00:00+02:00"];
    const first = await startBin(args);
    const second = await startBin([], {
      LOYALTY_MOCK_SEED: "ci",
      LOYALTY_MOCK_FREEZE_CLOCK: "2026-01-01T00:00:00Z",
    });
    expect(await tokenAnswer(second.url)).toEqual(await tokenAnswer(first.url));
    for (const { run } of [first, second]) {
      killGroup(run, "SIGTERM");
      expect((await run.exited).code).toBe(0);
      expect(run.stderr()).toMatch(
        /^loyalty-mock listening on http:\/\/127\.0\.0\.1:\d+\nloyalty-mock: seeded: ids, codes, tokens and secrets are predictable; for tests only\nloyalty-mock: every project clock frozen at 2026-01-01T00:00:00\.000Z\n$/,
      );
    }
  });

  it("a seed on an address others reach: the start warning says its keys and tokens are predictable", async () => {
    const run = launch("node", [MAIN, "--port", "0", "--host", "0.0.0.0", "--seed", "ci"], {
      LOYALTY_MOCK_LOG_LEVEL: "silent",
      LOYALTY_MOCK_EXIT_WITH_PARENT: "false",
    });
    started.push(run);
    await waitForStderr(run, /LOYALTY_MOCK_SEED\n/);
    killGroup(run, "SIGTERM");
    await run.exited;
    expect(run.stderr()).toContain(
      "loyalty-mock: warning: seeded, and reachable on 0.0.0.0: ids, codes, tokens and secrets are predictable, so " +
        "anyone who knows the seed can compute this server's app tokens, access tokens and webhook secrets",
    );
  });

  it("restarted on a state file, the line names the file's clocks, not every clock frozen", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-clock-line-"));
    try {
      const args = ["--freeze-clock", "2026-01-01T00:00:00Z", "--state-file", join(dir, "state.json")];
      const first = await startBin(args);
      const moved = await fetch(`${first.url}/__mock/projects/demo/clock`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ advance_seconds: 60 }),
      });
      expect(moved.status).toBe(200);
      killGroup(first.run, "SIGTERM");
      expect((await first.run.exited).code).toBe(0);
      const second = await startBin(args);
      killGroup(second.run, "SIGTERM");
      await second.run.exited;
      expect(second.run.stderr()).toMatch(
        /\nloyalty-mock: clocks as the state file saved them: demo frozen at 2026-01-01T00:01:00\.000Z, other frozen at 2026-01-01T00:00:00\.000Z(, [^;]*)?; LOYALTY_MOCK_FREEZE_CLOCK \(2026-01-01T00:00:00\.000Z\) freezes only projects created or reset from now on\n/,
      );
      expect(second.run.stderr()).not.toContain("every project clock frozen");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says nothing of a seed without one", async () => {
    const { run } = await startBin([]);
    killGroup(run, "SIGTERM");
    await run.exited;
    expect(run.stderr()).toMatch(/^loyalty-mock listening on http:\/\/127\.0\.0\.1:\d+\n$/);
  });
});
