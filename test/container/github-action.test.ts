import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Runner } from "../helpers/action-runner.js";
import { tinyLoyaltyDocument } from "../helpers/world.js";
import { DOCKER, docker, packageVersion } from "./docker.js";

/**
 * Issue 48: the GitHub Action's docker mode, run as a runner runs it (the node mode is in the slow tier,
 * test/slow/github-action.test.ts): main builds the image from the action's checkout (this tree) on the local Node
 * base image, with the npm CA as the runner's NODE_EXTRA_CA_CERTS, and runs it as the runner's user with a
 * fixtures folder, a settings file and a state file from the workspace; post summarises the journal, stops the
 * container and removes it, and the state file stays in the workspace, the runner's own.
 */
const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-action-docker-"));
const runner = new Runner(join(dir, "job"));
const TAG = `loyalty-mock:action-${packageVersion()}`;
let container = "";
afterAll(() => {
  for (const args of [
    ["rm", "-f", container],
    ["rmi", TAG],
  ])
    try {
      if (args.at(-1)) docker(args);
    } catch {
      // not made, or already gone
    }
  rmSync(dir, { recursive: true, force: true });
});

describe("the GitHub Action, docker mode", () => {
  it("main builds the image, runs it with the workspace's fixtures, settings and state file; post stops and removes it", async () => {
    mkdirSync(join(runner.workspace, "fixtures"));
    writeFileSync(
      join(runner.workspace, "fixtures", "tiny.json"),
      JSON.stringify(tinyLoyaltyDocument({ codes: ["TINY-0001"] })),
    );
    const main = runner.main(
      {
        mode: "docker",
        fixtures: "fixtures",
        "state-file": "state/mock.json",
        settings: "LOYALTY_MOCK_JOURNAL_SIZE=7",
        "node-image": process.env.NODE_IMAGE ?? "",
      },
      // The docker on the PATH is the tier's (docker-env.sh's, which builds with BuildKit here).
      { NODE_EXTRA_CA_CERTS: process.env.NPM_CA, PATH: `${dirname(DOCKER)}:${process.env.PATH}` },
      600_000,
    );
    container = (
      JSON.parse(/^\{"mode":"docker".*\}$/m.exec(readFileSync(runner.files.state, "utf8"))?.[0] ?? "{}") as {
        container: string;
      }
    ).container;
    expect(main.status, main.log).toBe(0);
    const outputs = runner.outputs() as Record<string, string>;
    expect(outputs).toMatchObject({
      "project-id": "tiny",
      "app-id": "tiny-app-id",
      "app-token": "tiny-app-token",
    });
    const url = outputs.url as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(docker(["inspect", "-f", "{{.Config.User}}", container])).toBe(
      `${process.getuid?.()}:${process.getgid?.()}`,
    );
    const admin = { "X-Mock-Admin-Token": outputs["admin-token"] as string };
    expect((await fetch(`${url}/__mock/health`)).status).toBe(401);
    const settings = (await (
      await fetch(`${url}/__mock/projects/tiny/settings`, { headers: admin })
    ).json()) as {
      effective: { journal_size: number };
    };
    expect(settings.effective.journal_size).toBe(7);
    const joined = await fetch(`${url}/v1/loyalties/camp_tiny/members`, {
      method: "POST",
      headers: {
        "X-App-Id": "tiny-app-id",
        "X-App-Token": "tiny-app-token",
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ customer: { source_id: "docker@example.com" } }),
    });
    expect(joined.status).toBe(200);

    const post = runner.post();
    expect(post.status, post.log).toBe(0);
    expect(runner.summary()).toContain("| tiny | addMember | 1 | 0 |");
    expect(runner.summary()).toContain("The server stopped cleanly (docker stop, exit status 0).");
    expect(docker(["ps", "-aq", "--filter", `name=^${container}$`])).toBe("");
    const state = join(runner.workspace, "state", "mock.json");
    expect(statSync(state).uid).toBe(process.getuid?.());
    expect(readFileSync(state, "utf8")).toContain("TINY-0001");
    expect(readFileSync(join(outputs["log-dir"] as string, "server.err"), "utf8")).toMatch(
      /^loyalty-mock listening on http:\/\/127\.0\.0\.1:3000\n/,
    );
    container = "";
  }, 600_000);
});
