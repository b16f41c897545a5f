import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, ROOT } from "../helpers/process.js";
import {
  ADMIN,
  DOCKER,
  docBlock,
  docker,
  dockerHealthy,
  healthy,
  hostPort,
  IMAGE,
  inspect,
  LABEL,
  RUN_ID,
  removeAll,
  runDetached,
  unique,
} from "./docker.js";

/**
 * Issue 25 item 2: the recipes of docs/guide/docker.md, each run as written. Only what would clash on a shared
 * machine changes: the image is the one under test, the host port a free one, the names this run's (labelled, so
 * that they are removed at the end).
 */
const GUIDE = "docs/guide/docker.md";

afterAll(() => removeAll());

/** A recipe's shell block with this run's image, port and names. */
function localized(block: string, port: number, names: Record<string, string>): string {
  let text = block;
  for (const [from, to] of Object.entries(names)) text = text.replaceAll(from, to);
  return text
    .replaceAll("127.0.0.1:3000:3000", `127.0.0.1:${port}:3000`)
    .replaceAll("localhost:3000", `localhost:${port}`)
    .replaceAll("docker run ", `docker run --label ${LABEL} `)
    .replaceAll("docker volume create ", `docker volume create --label ${LABEL} `)
    .replace(/^ {2}loyalty-mock$/m, `  ${IMAGE}`)
    .replaceAll(" loyalty-mock wait", ` ${IMAGE} wait`);
}

function bash(script: string, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync("bash", ["-eo", "pipefail", "-c", script], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: "pipe",
    timeout: 80_000,
    env: { ...process.env, ...env },
  });
}

/** A copy of the demo fixtures that the container's user can read, as a clone leaves files. */
function fixturesCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-fixtures-"));
  cpSync(join(ROOT, "fixtures", "demo"), join(dir, "demo"), { recursive: true });
  for (const path of [
    dir,
    join(dir, "demo"),
    ...readdirSync(join(dir, "demo")).map((f) => join(dir, "demo", f)),
  ])
    chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
  return dir;
}

describe("docs/guide/docker.md, as written", () => {
  it("Run it for a demo: token, state volume, the image's own wait, health by curl, stopped and removed", async () => {
    const port = await freePort();
    const name = unique("demo");
    const script = localized(docBlock(GUIDE, "## Run it for a demo", "sh"), port, {
      "loyalty-mock-state": unique("demo-state"),
      "--name loyalty-mock ": `--name ${name} `,
      "container:loyalty-mock ": `container:${name} `,
      "docker stop loyalty-mock ": `docker stop ${name} `,
      "docker rm loyalty-mock\n": `docker rm ${name}\n`,
    });
    expect(script).not.toMatch(/ loyalty-mock(\s|$)/);
    // curl's answer has no newline of its own: `docker stop` prints the name right after it.
    const health = /\{"status":"ok"[^}]*\}/.exec(bash(script))?.[0];
    expect(JSON.parse(health ?? "{}")).toMatchObject({ status: "ok", control: "token", projects: 2 });
    expect(docker(["ps", "-aq", "--filter", `name=${name}`])).toBe("");
  });

  it("Your own fixtures: a folder mounted read-only", async () => {
    const port = await freePort();
    const dir = fixturesCopy();
    try {
      const name = unique("fixtures");
      const script = localized(docBlock(GUIDE, "## Your own fixtures", "sh"), port, {
        "--name loyalty-mock-fixtures ": `--name ${name} `,
      }).replace("$PWD/my-fixtures", dir);
      bash(script);
      expect(inspect(name, "{{json .Mounts}}")).toContain('"RW":false');
      expect((await healthy(`http://127.0.0.1:${port}`)).projects).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Compose: docs/examples/compose.yaml up, healthy, token asked, read-only root; down -v leaves nothing", async () => {
    const port = await freePort();
    const compose =
      spawnSync(DOCKER, ["compose", "version"]).status === 0 ? [DOCKER, "compose"] : ["docker-compose"];
    const project = `lm${RUN_ID}`;
    const env = { ...process.env, LOYALTY_MOCK_IMAGE: IMAGE, LOYALTY_MOCK_HOST_PORT: String(port) };
    const run = (args: string[]) =>
      execFileSync(
        compose[0] as string,
        [...compose.slice(1), "-p", project, "-f", "docs/examples/compose.yaml", ...args],
        {
          cwd: ROOT,
          encoding: "utf8",
          stdio: "pipe",
          timeout: 80_000,
          env,
        },
      );
    try {
      run(["up", "-d"]);
      const id = run(["ps", "-q", "loyalty-mock"]).trim();
      expect(await healthy(`http://127.0.0.1:${port}`, { [ADMIN]: "change-me" })).toMatchObject({
        control: "token",
      });
      expect((await fetch(`http://127.0.0.1:${port}/__mock/health`)).status).toBe(401);
      expect(inspect(id, "{{.HostConfig.ReadonlyRootfs}}")).toBe("true");
      await dockerHealthy(id, 60_000);
    } finally {
      run(["down", "-v", "--timeout", "10"]);
    }
    expect(docker(["ps", "-aq", "--filter", `label=com.docker.compose.project=${project}`])).toBe("");
    expect(docker(["volume", "ls", "-q", "--filter", `label=com.docker.compose.project=${project}`])).toBe(
      "",
    );
  });

  it("A CI service container: the runner's docker run of the YAML's image, ports, env and options", async () => {
    const yaml = docBlock(GUIDE, "## A CI service container", "yaml");
    const service = /\n {6}loyalty-mock:\n((?: {8}.*\n)+)/.exec(yaml)?.[1] ?? "";
    const image = /^ {8}image: (.+)$/m.exec(service)?.[1];
    const ports = [...service.matchAll(/^ {10}- (\d+):(\d+)$/gm)].map(([, host, inner]) => [host, inner]);
    const envBlock = /^ {8}env:\n((?: {10}\w+: .*\n)+)/m.exec(service)?.[1] ?? "";
    const env = [...envBlock.matchAll(/^ {10}(\w+): (.*)$/gm)].flatMap(([, key, value]) => [
      "-e",
      `${key}=${value}`,
    ]);
    const options = /^ {8}options: (.+)$/m.exec(service)?.[1]?.split(/\s+/) ?? [];
    expect(image).toMatch(/loyalty-mock:/);
    expect(ports).toEqual([["3000", "3000"]]);
    expect(env).toEqual(["-e", "LOYALTY_MOCK_ADMIN_TOKEN=ci-secret"]);
    // The runner publishes `3000:3000` on every address; here a free loopback port stands in for it.
    const id = runDetached(["-p", "127.0.0.1::3000", ...env, ...options]);
    await dockerHealthy(id, 60_000);
    const base = `http://127.0.0.1:${hostPort(id)}`;
    const keys = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };
    expect((await fetch(`${base}/v1/locations/loc_demo_circle`, { headers: keys })).status).toBe(200);
    // The job's last step, as written, with the job's env.
    const step =
      /name: Keep what the application sent\n {8}if: always\(\)\n {8}run: \|\n((?: {10}.*\n)+)/.exec(
        yaml,
      )?.[1];
    const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-job-"));
    try {
      execFileSync("bash", ["-eo", "pipefail", "-c", (step ?? "").replace(/^ {10}/gm, "")], {
        cwd: dir,
        stdio: "pipe",
        timeout: 30_000,
        env: { ...process.env, LOYALTY_BASE_URL: base, LOYALTY_MOCK_ADMIN_TOKEN: "ci-secret" },
      });
      const journal = JSON.parse(readFileSync(join(dir, "mock-requests.json"), "utf8"));
      expect(journal.requests.map((entry: { path: string }) => entry.path)).toContain(
        "/v1/locations/loc_demo_circle",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
