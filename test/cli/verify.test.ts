import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_OBJECTS } from "../../src/cli/verify/config.js";
import { STEPS } from "../../src/cli/verify/steps.js";
import { OPERATIONS } from "../../src/http/operations/table.js";
import type { RunningServer } from "../../src/index.js";
import { closedPort } from "../helpers/receiver.js";
import {
  type Ran,
  SECRETS,
  startReleaseProxy,
  startTarget,
  tempDir,
  verify,
  writeConfig,
} from "./verify-helpers.js";

// `loyalty-mock verify` in this process, against a second stand-in playing the target on loopback.

interface JsonReport {
  steps: {
    name: string;
    note?: string;
    operation: string;
    match: boolean;
    skipped: boolean;
    differences: { path: string; kind: string; target: unknown; mock: unknown }[];
  }[];
  matched: number;
  differed: number;
  skipped: number;
  stopped?: string;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as JsonReport;
const differing = (report: JsonReport) =>
  report.steps
    .filter((step) => !step.match && !step.skipped)
    .map(({ name, operation, differences }) => ({
      name,
      operation,
      differences: differences.map(({ path, kind }) => ({ path, kind })),
    }));

const RELEASE_DIFFERENCES = [
  {
    name: "addMember",
    operation: "addMember",
    differences: [{ path: "body.loyalty_card", kind: "only-mock" }],
  },
  { name: "event-unknown-name", operation: "trackEvent", differences: [{ path: "body.key", kind: "value" }] },
];

describe("loyalty-mock verify", () => {
  let target: RunningServer;
  const temp = tempDir();
  const outputs: Ran[] = [];
  const run = async (...args: Parameters<typeof verify>) => {
    const ran = await verify(...args);
    outputs.push(ran);
    return ran;
  };

  beforeAll(async () => {
    target = await startTarget();
  });
  afterAll(async () => {
    await target?.close();
    temp.remove();
  });

  it("an unchanged target: every step matches, every operation exercised, exit 0", async () => {
    const json = join(temp.dir, "same.json");
    const ran = await run({ config: writeConfig(temp.dir, target.url), json });
    expect(ran.stderr).toBe("");
    expect(ran.status).toBe(0);
    const report = readJson(json);
    expect(report).toMatchObject({ differed: 0, skipped: 0 });
    expect(report.matched).toBe(report.steps.length);
    expect(new Set(report.steps.map((step) => step.operation))).toEqual(
      new Set(OPERATIONS.map((row) => row.name)),
    );
    expect(ran.stdout).toMatch(/^step +operation +target +mock +verdict +first difference$/m);
    expect(ran.stdout).toContain(`${report.steps.length} matched, 0 differed, 0 skipped`);
    expect(ran.stdout).toMatch(/deleteIncentive .* match +deleted linc_d0000000000000105/);
  });

  it("without allow_writes the writing steps are skipped, and every operation still has a step", async () => {
    const json = join(temp.dir, "read-only.json");
    const ran = await run({ config: writeConfig(temp.dir, target.url, { allowWrites: false }), json });
    expect(ran.status).toBe(0);
    const report = readJson(json);
    expect(report.steps.filter((step) => step.skipped).map((step) => step.name)).toEqual([
      "addMember",
      "member-same-customer",
      "trackEvent",
      "createTier",
      "createTier-ga",
      "deleteIncentive",
      "deleteBenefit",
    ]);
    const exercised = new Set(report.steps.filter((step) => !step.skipped).map((step) => step.operation));
    expect(exercised.size).toBe(OPERATIONS.length);
    expect(ran.stdout).toContain("allow_writes in the config (or --allow-writes) runs them");
  });

  it("a vendor release behind a proxy: exactly the changed steps, with their operation and path, exit 1", async () => {
    const proxy = await startReleaseProxy(target.url);
    try {
      const json = join(temp.dir, "release.json");
      const record = join(temp.dir, "release.recording.json");
      const ran = await run({ config: writeConfig(temp.dir, proxy.url), json, record });
      expect(ran.status).toBe(1);
      expect(differing(readJson(json))).toEqual(RELEASE_DIFFERENCES);
      expect(ran.stdout).toMatch(
        /addMember +addMember +200 +200 +DIFFERS +body\.loyalty_card: only the mock has it \("object"\)/,
      );
    } finally {
      await proxy.close();
    }
  });

  it("--replay of that recording, the target gone: the same differences, and no config needed", async () => {
    const record = join(temp.dir, "release.recording.json");
    const json = join(temp.dir, "replayed.json");
    const ran = await run({ replay: record, json });
    expect(ran.status).toBe(1);
    expect(differing(readJson(json))).toEqual(RELEASE_DIFFERENCES);
    expect(ran.stdout).toContain("target: the recording");
  });

  it("a recording of 0.11 (success steps by their old names, its customers in its inputs) replays the same", async () => {
    const recording = JSON.parse(readFileSync(join(temp.dir, "release.recording.json"), "utf8"));
    const before: Record<string, string> = {
      generateToken: "token-api",
      getLocation: "location",
      addMember: "member-new-customer",
      trackEvent: "event",
      createTier: "tier",
      deleteIncentive: "incentive-delete",
    };
    const { run: name, tierPoints } = recording.inputs;
    const old = {
      ...recording,
      recorded_with: "0.11.0",
      inputs: {
        run: name,
        memberSourceId: `verify-${name}-member`,
        eventSourceId: `verify-${name}-event`,
        tierName: `verify ${name}`,
        tierPoints,
      },
      exchanges: recording.exchanges.map((exchange: { step: string }) => ({
        ...exchange,
        step: before[exchange.step] ?? exchange.step,
      })),
    };
    expect(old.exchanges.map((exchange: { step: string }) => exchange.step)).toContain("token-api");
    const file = join(temp.dir, "old.recording.json");
    writeFileSync(file, JSON.stringify(old));
    const json = join(temp.dir, "old-replayed.json");
    const ran = await run({ replay: file, json });
    expect(ran.status).toBe(1);
    expect(differing(readJson(json))).toEqual(RELEASE_DIFFERENCES);
    expect(readJson(json).steps.filter((step) => step.skipped)).toEqual([]);
  });

  it("incentives an earlier run deleted are passed over; when none is left the step says to add some", async () => {
    const objects = { incentive_ids: ["linc_d00000000000000de"] };
    const json = join(temp.dir, "no-incentive.json");
    const ran = await run({ config: writeConfig(temp.dir, target.url, { objects }), json });
    expect(ran.status).toBe(1);
    // The benefit step tries the same list: a benefit is the generally available reference's incentive.
    expect(differing(readJson(json))).toEqual(
      ["deleteIncentive", "deleteBenefit"].map((name) => ({
        name,
        operation: name,
        differences: [{ path: "status", kind: "status" }],
      })),
    );
    for (const name of ["deleteIncentive", "deleteBenefit"])
      expect(readJson(json).steps.find((step) => step.name === name)).toMatchObject({
        note: "every incentive of incentive_ids is deleted already: add new ones",
      });
  });

  it("a target that rate-limits early: stopped before its budget runs out, saying why, exit 3", async () => {
    const limited = await startTarget();
    try {
      await fetch(`${limited.url}/__mock/projects/demo/settings`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ rate_limit: { limit: 10, window_seconds: 3600 } }),
      });
      const json = join(temp.dir, "limited.json");
      const ran = await run({ config: writeConfig(temp.dir, limited.url), json });
      expect(ran.status).toBe(3);
      expect(ran.stderr).toContain(
        // After the token step, every other step is still to run.
        `stopped: the target allows 9 more calls now (X-Rate-Limit-Remaining) and the run needs ${STEPS.length - 1}`,
      );
      expect(readJson(json).stopped).toMatch(/X-Rate-Limit-Remaining/);
      const settings = (await (await fetch(`${limited.url}/__mock/projects/demo/settings`)).json()) as {
        rate_limit_window: { remaining: number };
      };
      expect(settings.rate_limit_window.remaining).toBe(9);
    } finally {
      await limited.close();
    }
  });

  it("secrets from the environment work, and no output or file holds a secret or a token", async () => {
    const config = writeConfig(temp.dir, target.url, { secretsInFile: false });
    const env = {
      LOYALTY_MOCK_VERIFY_APP_ID: SECRETS.appId,
      LOYALTY_MOCK_VERIFY_APP_TOKEN: SECRETS.appToken,
    };
    const ran = await run(
      { config, json: join(temp.dir, "env.json"), record: join(temp.dir, "env.rec.json") },
      env,
    );
    expect(ran.status).toBe(0);
    const everything = [...outputs.flatMap((out) => [out.stdout, out.stderr]), ...temp.files()].join("\n");
    const written = temp
      .files()
      .filter((text) => !text.includes('"app_token"'))
      .join("\n");
    for (const secret of Object.values(SECRETS)) expect(written).not.toContain(secret);
    for (const out of outputs) expect(`${out.stdout}${out.stderr}`).not.toMatch(/5ecret/);
    expect(everything).not.toMatch(/Bearer [A-Za-z0-9]/);
    expect(written).toContain("<access_token>");
  });

  it("--mock <url>: a running loyalty-mock as the mock side, the demo key and objects by default", async () => {
    const mock = await startTarget();
    try {
      const json = join(temp.dir, "running-mock.json");
      const ran = await run({ config: writeConfig(temp.dir, target.url), json, mock: mock.url });
      expect(ran.status).toBe(0);
      expect(ran.stdout).toContain(`mock:   loyalty-mock 0.0.0-test, ${mock.url}`);
      const journal = (await (await fetch(`${mock.url}/__mock/projects/demo/requests`)).json()) as {
        total: number;
      };
      // Every step but those without credentials, which name no project.
      const inputs = { run: "r", tierPoints: 1 };
      const credited = STEPS.filter(
        (step) => step.request(DEMO_OBJECTS, inputs, "linc_0").credentials !== "none",
      );
      expect(journal.total).toBe(credited.length);
    } finally {
      await mock.close();
    }
  });

  it("a key pair the target refuses is a config error (exit 2), not sixteen differences", async () => {
    const config = writeConfig(temp.dir, target.url, { secretsInFile: false });
    const env = { LOYALTY_MOCK_VERIFY_APP_ID: SECRETS.appId, LOYALTY_MOCK_VERIFY_APP_TOKEN: "wrong-token" };
    const ran = await run({ config }, env);
    expect(ran).toMatchObject({ status: 2, stdout: "" });
    expect(ran.stderr).toBe(
      "loyalty-mock verify: the target refused the key pair (401 to the token request): check its app_id and app_token (or their variables)\n",
    );
  });

  it("a tier structure with an open-ended tier is a config error (exit 2) naming it, not a difference (issue 34)", async () => {
    // lts_d0000000000000004 holds Gold, 1000 points and above: every range verify adds lies inside it.
    const config = writeConfig(temp.dir, target.url, {
      objects: { tier_structure_id: "lts_d0000000000000004" },
    });
    const ran = await run({ config, allowWrites: true });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(
      /^loyalty-mock verify: the target's tier_structure_id has an open-ended POINTS tier, which overlaps the tier verify adds \(Points range \d+-\d+ overlaps tier lt_\w+ \(Gold, points 1000 and above\)\): name a structure whose POINTS tiers all have a max_value\n$/,
    );
  });

  it("config errors are exit 2 with one line; an unreachable target is exit 3", async () => {
    const missing = await run({ config: join(temp.dir, "nope.json") });
    expect(missing).toMatchObject({ status: 2, stdout: "" });
    expect(missing.stderr).toMatch(/^loyalty-mock verify: cannot read .*nope\.json \(ENOENT\)\n$/);
    const noSecrets = await run({ config: writeConfig(temp.dir, target.url, { secretsInFile: false }) });
    expect(noSecrets.status).toBe(2);
    expect(noSecrets.stderr).toContain("LOYALTY_MOCK_VERIFY_APP_ID and LOYALTY_MOCK_VERIFY_APP_TOKEN");
    const { host, port } = await closedPort();
    const gone = await run({ config: writeConfig(temp.dir, `http://${host}:${port}`) });
    expect(gone.status).toBe(3);
    expect(gone.stderr).toContain(
      `stopped: http://${host}:${port} did not answer POST /v1/oauth/token (ECONNREFUSED)`,
    );
  });
});
