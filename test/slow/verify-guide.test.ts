import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STEPS } from "../../src/cli/verify/steps.js";
import type { RunningServer } from "../../src/index.js";
import { SECRETS, startTarget, TARGET_OBJECTS } from "../cli/verify-helpers.js";
import { docBlock, workflowSteps } from "../helpers/consumer.js";
import { blocksOf } from "../helpers/doc-blocks.js";
import { portsFor, Session, showsAs } from "../helpers/doc-shell.js";
import { build } from "../helpers/process.js";

/**
 * docs/guide/verify.md as a user follows it, with a second stand-in as the sandbox project: the config of
 * "2. Write the config" with the target's URL and objects filled in, the commands of "3. The first recorded run"
 * (the key pair exported, the recorded run) and the table they print, then the CI job of "5. Check every upgrade in
 * CI" replaying the recording.
 */
const PAGE = "docs/guide/verify.md";

describe(`${PAGE}, as written`, { timeout: 120_000 }, () => {
  let target: RunningServer;
  let targetClosed: Promise<void> | undefined;
  let session: Session;
  beforeAll(async () => {
    build();
    target = await startTarget();
    session = new Session({ ports: await portsFor() });
  });
  afterAll(async () => {
    await session.close();
    await (targetClosed ?? target.close());
  });

  it("2. Write the config, 3. The first recorded run: the run prints the table the page shows, exit 0", async () => {
    const config = JSON.parse(docBlock(PAGE, "## 2. Write the config", "json")) as {
      target: { url: string };
      objects: Record<string, unknown>;
    };
    // The page's fields, filled with the sandbox's (here the second stand-in's) objects.
    expect(Object.keys(config.objects).sort()).toEqual(Object.keys(TARGET_OBJECTS).sort());
    writeFileSync(
      join(session.dir, "verify.json"),
      JSON.stringify({ ...config, target: { url: target.url }, objects: TARGET_OBJECTS }),
    );
    const commands = docBlock(PAGE, "## 3. The first recorded run", "sh")
      .replace("LOYALTY_MOCK_VERIFY_APP_ID=…", `LOYALTY_MOCK_VERIFY_APP_ID=${SECRETS.appId}`)
      .replace("LOYALTY_MOCK_VERIFY_APP_TOKEN=…", `LOYALTY_MOCK_VERIFY_APP_TOKEN=${SECRETS.appToken}`)
      .trimEnd()
      .split("\n");
    expect(commands).toHaveLength(2);
    expect((await session.run(commands[0] as string)).exit).toBe(0);
    // The target here is on loopback, where the page's is the service's https URL.
    const ran = await session.run(commands[1] as string);
    ran.stdout = ran.stdout.replace(/^target: http:\/\/127\.0\.0\.1:\d+$/m, "target: https://127.0.0.1");
    expect(ran.exit, ran.stderr).toBe(0);
    const blocks = blocksOf(PAGE);
    const shown = blocks[blocks.findIndex((block) => block.heading === "## 3. The first recorded run") + 1];
    expect(shown?.marker?.kind).toBe("output");
    expect(showsAs(shown?.text as string, ran.stdout), ran.stdout).toBe(true);
    expect(JSON.parse(readFileSync(join(session.dir, "verify.report.json"), "utf8"))).toMatchObject({
      matched: STEPS.length,
      differed: 0,
    });
  });

  it("5. Check every upgrade in CI: the job's steps replay the recording, the target gone, exit 0", async () => {
    targetClosed = target.close();
    await targetClosed;
    const { steps } = workflowSteps(docBlock(PAGE, "## 5. Check every upgrade in CI", "yaml"));
    // The checkout and npm ci are the runner's; the folder here has this build installed already.
    const ours = steps.filter((step) => step.run.startsWith("npx loyalty-mock"));
    expect(ours).toHaveLength(1);
    const ran = await session.run((ours[0] as { run: string }).run);
    expect(ran.exit, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(
      new RegExp(
        `\n${STEPS.length} matched, 0 differed, 0 skipped\ntarget: the recording verify\\.recording\\.json `,
      ),
    );
  });
});
