import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ACTION, Runner } from "../helpers/action-runner.js";
import { docBlock } from "../helpers/consumer.js";
import { copyProjectTree } from "../helpers/files.js";
import { childEnv, ROOT } from "../helpers/process.js";

/**
 * Issue 48: the GitHub Action of this repository (action.yml), node mode, run as a runner runs it: its main step
 * from a checkout as the runner downloads one (this tree's files, nothing built, no node_modules), which installs
 * it offline from npm's cache and builds it, then the application's calls, then its post step. The docker mode runs
 * in the container tier (test/container/github-action.test.ts). Last, docs/guide/ci.md's job with the action, as
 * written, twice, the second job's cache restored from the first's.
 */
const NPM_OFFLINE = { npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false" };
let dir: string;
let checkout: string;
let runner: Runner;
const servers: number[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-action-"));
  checkout = join(dir, "loyalty-mock");
  // A downloaded action has no node_modules.
  copyProjectTree(checkout);
  runner = new Runner(join(dir, "job"), checkout);
});

afterAll(() => {
  for (const pid of servers)
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // stopped, as it should be
    }
  rmSync(dir, { recursive: true, force: true });
});

const INPUTS = {
  seed: "action",
  "freeze-clock": "2026-01-01",
  "state-file": ".loyalty-mock/state.json",
  settings: "LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE=0\nLOYALTY_MOCK_JOURNAL_SIZE=500",
};

/** The pid a job's main saved for its post step. */
const savedPidOf = (job: Runner) =>
  (
    JSON.parse(/^\{"mode":"node".*\}$/m.exec(readFileSync(job.files.state, "utf8"))?.[0] ?? "{}") as {
      pid: number;
    }
  ).pid;
const savedPid = () => savedPidOf(runner);

const call = (url: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

describe("the GitHub Action, node mode", { timeout: 300_000 }, () => {
  it("action.yml runs main and post on node24, post always", () => {
    expect(ACTION.runs).toEqual({
      using: "node24",
      main: "action/main.mjs",
      post: "action/post.mjs",
      "post-if": "always()",
    });
    expect(Object.keys(ACTION.outputs)).toEqual([
      "url",
      "admin-token",
      "project-id",
      "app-id",
      "app-token",
      "log-dir",
    ]);
  });

  it("main installs and builds the checkout, starts the server to outlive the step, and hands out its address and keys", async () => {
    expect(existsSync(join(checkout, "dist"))).toBe(false);
    const main = runner.main(INPUTS, NPM_OFFLINE);
    servers.push(savedPid());
    expect(main.status, main.log).toBe(0);
    expect(existsSync(join(checkout, "dist", "main.js"))).toBe(true);
    const outputs = runner.outputs();
    expect(outputs).toMatchObject({
      "project-id": "demo",
      "app-id": "demo-app-id",
      "app-token": "demo-app-token",
    });
    expect(outputs.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(outputs["admin-token"]).toMatch(/^[0-9a-f]{48}$/);
    // The token is masked before anything else is said: the log never shows it but in the mask command.
    const token = outputs["admin-token"] as string;
    expect(main.log.split("\n")[0]).toBe(`::add-mask::${token}`);
    expect(main.log.split(token)).toHaveLength(2);
    expect(runner.exported()).toEqual({
      LOYALTY_BASE_URL: outputs.url,
      LOYALTY_MOCK_ADMIN_TOKEN: token,
      LOYALTY_PROJECT_ID: "demo",
      LOYALTY_APP_ID: "demo-app-id",
      LOYALTY_APP_TOKEN: "demo-app-token",
    });
    // The step has ended; the server answers, with the inputs and the settings lines in force.
    const url = outputs.url as string;
    const admin = { "X-Mock-Admin-Token": token };
    expect((await call(url, "/__mock/projects", {})).status).toBe(401);
    const clock = (await (await call(url, "/__mock/projects/demo/clock", admin)).json()) as {
      now: string;
      frozen: boolean;
    };
    expect(clock).toMatchObject({ now: "2026-01-01T00:00:00.000Z", frozen: true });
    const settings = (await (await call(url, "/__mock/projects/demo/settings", admin)).json()) as {
      effective: { rate_limit: unknown; journal_size: number };
    };
    expect(settings.effective).toMatchObject({ rate_limit: null, journal_size: 500 });
    expect(readFileSync(join(outputs["log-dir"] as string, "server.err"), "utf8")).toMatch(
      /^loyalty-mock listening on http:\/\/127\.0\.0\.1:\d+\n/,
    );
  });

  it("post writes the journal's summary, stops the server cleanly, and leaves its state file and logs", async () => {
    const { url, "log-dir": logDir } = runner.outputs() as { url: string; "log-dir": string };
    const keys = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };
    const joined = await call(url, "/v1/loyalties/camp_demo_loyalty/members", keys, {
      customer: { source_id: "action@example.com" },
    });
    expect(joined.status).toBe(200);
    expect((await call(url, "/v1/locations/loc_demo_circle", keys)).status).toBe(200);
    expect((await call(url, "/v1/locations/loc_nope", keys)).status).toBe(404);
    const post = runner.post();
    expect(post.status, post.log).toBe(0);
    const summary = runner.summary();
    expect(summary).toContain("| demo | addMember | 1 | 0 |");
    expect(summary).toContain("| demo | getLocation | 2 | 1 |");
    expect(summary).toContain(
      "| demo | `GET /v1/locations/loc_nope` | 404 | not_found: Cannot find location with id loc_nope |",
    );
    expect(summary).toMatch(
      /\n\nThe server stopped cleanly \(SIGTERM\)\. Its logs: `[^`]+` \(server\.log, server\.err\)\.\n$/,
    );
    await expect(fetch(`${url}/__mock/health`)).rejects.toThrow();
    expect(existsSync(join(runner.workspace, ".loyalty-mock", "state.json"))).toBe(true);
    const log = readFileSync(join(logDir, "server.log"), "utf8");
    expect(log).toContain('"msg":"shutting down"');
    expect(log).toContain('"msg":"state saved"');
  });

  it("the next job on the same state file starts where the last one stopped", async () => {
    runner.newJob();
    const main = runner.main(INPUTS, NPM_OFFLINE);
    servers.push(savedPid());
    expect(main.status, main.log).toBe(0);
    expect(main.log).not.toContain("npm ci");
    const { url, "admin-token": token } = runner.outputs() as { url: string; "admin-token": string };
    const project = (await (
      await call(url, "/__mock/projects/demo", { "X-Mock-Admin-Token": token })
    ).json()) as {
      counts: Record<string, number>;
    };
    const fresh = (await (
      await call(url, "/__mock/projects/other", { "X-Mock-Admin-Token": token })
    ).json()) as object;
    expect(fresh).toMatchObject({ id: "other" });
    // The card the first job assigned is there: one publication more than the demo fixtures hold.
    const fixtures = JSON.parse(
      readFileSync(join(ROOT, "fixtures", "demo", "publications.json"), "utf8"),
    ) as unknown[];
    expect(project.counts.publications).toBe(fixtures.length + 1);
    expect(runner.post().status).toBe(0);
    expect(runner.summary()).toContain("No call reached loyalty-mock's operations.");
  });

  it("main refuses an input it cannot use, naming it, and post finds nothing to stop", () => {
    runner.newJob();
    const main = runner.main({ mode: "podman" });
    expect(main.status).toBe(1);
    expect(main.log).toContain('::error::loyalty-mock: mode: "podman"; expected node or docker');
    const post = runner.post();
    expect(post.status).toBe(0);
    expect(post.log).toContain("loyalty-mock: no server to stop");
  });

  it("a server that cannot start fails main with its reason; post then says it had stopped", () => {
    runner.newJob();
    const main = runner.main({ fixtures: "no-such-folder" });
    expect(main.status).toBe(1);
    expect(main.log).toMatch(
      /::error::loyalty-mock: loyalty-mock wait: the server did not start: .*--fixtures/,
    );
    const post = runner.post();
    expect(post.status, post.log).toBe(0);
    expect(post.log).toContain("The server had already stopped.");
  });
});

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}

/** The application of the guide's job: one integration test, which assigns a card with the keys it is given. */
function writeApplication(workspace: string): void {
  const manifest = { name: "app", private: true, scripts: { "test:integration": "node integration.mjs" } };
  writeFileSync(join(workspace, "package.json"), JSON.stringify(manifest));
  writeFileSync(
    join(workspace, "package-lock.json"),
    JSON.stringify({ name: "app", lockfileVersion: 3, requires: true, packages: { "": { name: "app" } } }),
  );
  writeFileSync(
    join(workspace, "integration.mjs"),
    [
      "const { LOYALTY_BASE_URL: url, LOYALTY_APP_ID: appId, LOYALTY_APP_TOKEN: appToken } = process.env;",
      'const res = await fetch(url + "/v1/loyalties/camp_demo_loyalty/members", {',
      '  method: "POST",',
      '  headers: { "X-App-Id": appId, "X-App-Token": appToken, "Content-Type": "application/json" },',
      '  body: JSON.stringify({ customer: { source_id: "run-" + process.env.GITHUB_RUN_ID + "@example.com" } }),',
      "});",
      'if (res.status !== 200) throw new Error(res.status + " " + (await res.text()));',
      "",
    ].join("\n"),
  );
}

/** Everything the state folder holds (the snapshot and its change log), as text. */
const stateText = (folder: string) =>
  readdirSync(folder)
    .map((file) => readFileSync(join(folder, file), "utf8"))
    .join("\n");

describe("docs/guide/ci.md, With the GitHub Action: the job as written, as a runner runs it", {
  timeout: 300_000,
}, () => {
  const job = (
    parse(docBlock("docs/guide/ci.md", "## With the GitHub Action", "yaml")) as {
      jobs: { integration: { steps: Step[] } };
    }
  ).jobs.integration;
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

  it("uses this version's tag, after a cache of the state file's folder", () => {
    const { steps } = job;
    const ours = steps.findIndex((step) => step.uses?.includes("/loyalty-mock@"));
    expect(steps[ours]?.uses).toBe(`OWNER/loyalty-mock@v${version}`);
    // The runner's own actions, which this machine does not run: the workspace is prepared, this Node is the job's,
    // the cache is restored by copying the folder, and nothing is uploaded.
    expect(
      steps.flatMap((step) => (step.uses?.startsWith("actions/") ? [step.uses.split("@")[0]] : [])),
    ).toEqual(["actions/checkout", "actions/setup-node", "actions/cache", "actions/upload-artifact"]);
    const cache = steps.findIndex((step) => step.uses?.startsWith("actions/cache@"));
    // Before ours, so that its post step (which saves) runs after ours (which stops the server and saves the state).
    expect(cache).toBeLessThan(ours);
    expect(dirname(steps[ours]?.with?.["state-file"] as string)).toBe(steps[cache]?.with?.path);
  });

  it("runs twice: each job's integration test passes, and the second starts from the first one's state", () => {
    for (const run of [1, 2]) {
      const jobRunner = new Runner(join(dir, `guide-${run}`), checkout);
      writeApplication(jobRunner.workspace);
      if (run === 2)
        cpSync(
          join(dir, "guide-1", "workspace", ".loyalty-mock"),
          join(jobRunner.workspace, ".loyalty-mock"),
          {
            recursive: true,
          },
        );
      const env = { ...NPM_OFFLINE, GITHUB_RUN_ID: String(run) };
      for (const step of job.steps) {
        if (step.uses?.startsWith("actions/")) continue;
        if (step.uses) {
          const main = jobRunner.main(step.with ?? {}, env);
          servers.push(savedPidOf(jobRunner));
          expect(main.status, main.log).toBe(0);
          continue;
        }
        const result = spawnSync(
          "bash",
          ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run as string],
          {
            cwd: jobRunner.workspace,
            env: childEnv({ ...env, ...jobRunner.exported() }),
            encoding: "utf8",
            timeout: 120_000,
          },
        );
        expect(result.status, `${step.run}\n${result.stdout}${result.stderr}`).toBe(0);
      }
      const post = jobRunner.post();
      expect(post.status, post.log).toBe(0);
      expect(jobRunner.summary()).toContain("| demo | addMember | 1 | 0 |");
      expect(jobRunner.summary()).toContain("The server stopped cleanly (SIGTERM).");
    }
    const first = stateText(join(dir, "guide-1", "workspace", ".loyalty-mock"));
    const second = stateText(join(dir, "guide-2", "workspace", ".loyalty-mock"));
    expect([first.includes("run-1@example.com"), first.includes("run-2@example.com")]).toEqual([true, false]);
    expect([second.includes("run-1@example.com"), second.includes("run-2@example.com")]).toEqual([
      true,
      true,
    ]);
  });
});
