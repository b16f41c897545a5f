import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerManifests, docBlock, workflowSteps } from "../helpers/consumer.js";
import { freePort, killGroup, launch, ROOT, type Started, waitForStderr } from "../helpers/process.js";

/**
 * Issue 14, "Install it anywhere": the package as a user gets it. Packed, installed from the tarball (offline:
 * see helpers/consumer.ts) into a new application folder whose .env belongs to the application, then the
 * documented commands run there: README's npx line, the library example of docs/guide/library.md, a strict type
 * check, the CI recipe of docs/guide/ci.md and its GitHub Actions job. Last, an install from a git URL, which must build dist/ itself.
 */

const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const TARBALL = `loyalty-mock-${version}.tgz`;
const INSTALL = `npm install --save-dev ./${TARBALL}`;
/** README.md's "Install" block: the install line, then the command that serves. */
const README_INSTALL = docBlock("README.md", "## Install", "sh")
  .split("\n")
  .map((line) => line.replace(/\s+#.*$/, ""));
const NPX = "npx loyalty-mock";
/** No network: every package comes from npm's cache. */
const NPM_ENV = {
  npm_config_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
};
const KEYS = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };

/** Whether the server stopped listening within 5 s (its port refuses connections). */
async function stopsAnswering(url: string): Promise<boolean> {
  for (const deadline = Date.now() + 5000; Date.now() < deadline; ) {
    try {
      await fetch(`${url}/__mock/health`);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** The processes running in `cwd` whose command line names loyalty-mock: npm, its shell, the server. */
function loyaltyMockProcesses(cwd: string): string[] {
  return readdirSync("/proc").flatMap((pid) => {
    try {
      const line = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
      return /^\d+$/.test(pid) &&
        line.includes("loyalty-mock --port") &&
        readlinkSync(`/proc/${pid}/cwd`) === cwd
        ? [`${pid} ${line}`]
        : [];
    } catch {
      return [];
    }
  });
}

const sh = (cwd: string, command: string, args: string[], timeout = 120_000) =>
  execFileSync(command, args, {
    cwd,
    env: { ...process.env, ...NPM_ENV },
    encoding: "utf8",
    stdio: "pipe",
    timeout,
  });

// npm, tsc over every declaration file (skipLibCheck false) and vitest take 10-40 s each on a busy 2-core machine.
describe("installed from the tarball into an application's folder", { timeout: 180_000 }, () => {
  let dir: string;
  let app: string;
  let manifestBefore: string;
  /** What `npm install` of the tarball said on stderr. */
  let installWarnings: string;
  const started: Started[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-install-"));
    app = join(dir, "app");
    mkdirSync(app);
    manifestBefore = readFileSync(join(ROOT, "package.json"), "utf8");
    // `npm pack` runs prepack, which builds dist/ and writes the tarball's package.json without `prepare`.
    sh(ROOT, "npm", ["pack", "--pack-destination", app, "--silent"], 180_000);
    const { manifest, lock } = consumerManifests(["vitest", "typescript"], {
      "test:integration": "node integration.mjs",
    });
    writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));
    writeFileSync(join(app, "package-lock.json"), JSON.stringify(lock, null, 2));
    // The application's own settings, which the mock must not take.
    writeFileSync(join(app, ".env"), "PORT=8080\nLOG_LEVEL=http\nHOST=0.0.0.0\n");
    const install = spawnSync("npm", INSTALL.split(" ").slice(1), {
      cwd: app,
      env: { ...process.env, ...NPM_ENV },
      encoding: "utf8",
      timeout: 180_000,
    });
    installWarnings = install.stderr;
    expect(install.status, install.stderr).toBe(0);
  }, 300_000);

  afterAll(() => {
    for (const run of started) killGroup(run, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("the tarball holds what runs and nothing else", () => {
    const listed = sh(ROOT, "tar", ["-tzf", join(app, TARBALL)])
      .trim()
      .split("\n");
    const paths = listed.map((path) => path.replace(/^package\//, ""));
    // ui/: the dashboard's files, served as they are (no build step); scenarios/: what `loyalty-mock play` plays.
    const shipped = /^(dist\/|fixtures\/|scenarios\/|ui\/|(README|CHANGELOG)\.md$|LICENSE$|package\.json$)/;
    expect(paths.filter((path) => !shipped.test(path))).toEqual([]);
    expect(paths.filter((path) => /tsbuildinfo|\.map$/.test(path))).toEqual([]);
    expect(paths).toEqual(
      expect.arrayContaining([
        "dist/main.js",
        "dist/index.d.ts",
        "dist/clients/control-client.js",
        "dist/clients/control-client.d.ts",
        "dist/clients/testcontainers.js",
        "dist/clients/testcontainers.d.ts",
        "fixtures/demo/api-keys.json",
        "ui/index.html",
        "ui/app.js",
        "scenarios/first-month.json",
        "scenarios/busy-saturday.json",
      ]),
    );
  });

  it("installs without an install-script warning: the tarball's manifest has no script npm runs on install", () => {
    // Issue 47: npm 11 listed the packed `prepare` as not yet covered by allowScripts, though it never runs for a
    // tarball, and `npm install-scripts ls` then listed nothing.
    expect(installWarnings).not.toMatch(/install-scripts|allowScripts/);
    const packed = JSON.parse(sh(ROOT, "tar", ["-xzOf", join(app, TARBALL), "package/package.json"])) as {
      scripts: Record<string, string>;
    };
    for (const event of ["preinstall", "install", "postinstall", "prepare"])
      expect(packed.scripts[event], event).toBeUndefined();
    // The clone's own manifest is as it was, `prepare` included: `npm ci` and git installs build with it.
    expect(readFileSync(join(ROOT, "package.json"), "utf8")).toBe(manifestBefore);
    expect(existsSync(join(ROOT, ".package.json.packing"))).toBe(false);
  });

  it("the README's npx line serves on a loopback port despite the app's .env, and stops cleanly", async () => {
    expect(README_INSTALL.slice(0, 2)).toEqual([INSTALL, NPX]);
    const [command, ...args] = NPX.split(" ");
    // Its own port, 3000, would clash with other runs here: the variable stands in for it (the app's .env has 8080).
    const listenPort = await freePort();
    const run = launch(command as string, args, { ...NPM_ENV, LOYALTY_MOCK_PORT: String(listenPort) }, app);
    started.push(run);
    const [, url, port] = await waitForStderr(
      run,
      /loyalty-mock listening on (http:\/\/127\.0\.0\.1:(\d+))\n/,
    );
    expect(Number(port)).toBe(listenPort);
    const res = await fetch(`${url}/v1/locations/loc_demo_circle`, { headers: KEYS });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe("loc_demo_circle");
    // The dashboard, from the installed package's own ui/ folder, with no build step; and lossless-json's modules
    // (ui/json.js loads them), from wherever npm installed the dependency.
    for (const file of ["", "app.js", "panels/members.js", "vendor/lossless-json/index.js"]) {
      const ui = await fetch(`${url}/__mock/ui/${file}`);
      expect(ui.status, file).toBe(200);
      await ui.arrayBuffer();
    }
    // As Ctrl-C or a CI runner stops it: the whole process group. (SIGTERM to npx alone: the next test.)
    killGroup(run, "SIGTERM");
    expect(await run.exited).toEqual({ code: null, signal: "SIGTERM" });
    await expect(stopsAnswering(url as string)).resolves.toBe(true);
    // The log, at info: JSON lines on stdout, the start and each request.
    const logs = run.stdout().trim().split("\n");
    expect(logs.map((line) => (JSON.parse(line) as { msg?: string }).msg)).toContain(
      `loyalty-mock listening on ${url}`,
    );
    // Once, and nothing else of ours (npm may add warnings of its own).
    const ours = run
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("loyalty-mock"));
    expect(ours).toEqual([`loyalty-mock listening on ${url}`]);
  });

  it("`npx loyalty-mock --port 0 &` then `kill $!` leaves no server process behind (issue 25)", async () => {
    // The shell that ran npx lives on, as a CI script does after `kill $!`: only npx itself is gone.
    const script =
      "npx loyalty-mock --port 0 --log-level silent 2> npx.err &\n" +
      "echo $!\nnode_modules/.bin/loyalty-mock wait --log npx.err --timeout 30\nsleep 120\n";
    const run = launch("bash", ["-c", script], NPM_ENV, app);
    started.push(run);
    const deadline = Date.now() + 40_000;
    while (!/\n.*\n/.test(run.stdout()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const [npx, url] = run.stdout().trim().split("\n");
    expect(loyaltyMockProcesses(app).length, run.stderr()).toBeGreaterThanOrEqual(2);
    process.kill(Number(npx), "SIGTERM");
    await expect(stopsAnswering(url as string)).resolves.toBe(true);
    let left = loyaltyMockProcesses(app);
    for (
      const until = Date.now() + 5000;
      left.length > 0 && Date.now() < until;
      left = loyaltyMockProcesses(app)
    )
      await new Promise((r) => setTimeout(r, 50));
    expect(left).toEqual([]);
    killGroup(run, "SIGKILL");
  });

  it("runs the library guide's example with the app's own vitest", () => {
    writeFileSync(
      join(app, "readme-example.test.ts"),
      docBlock("docs/guide/library.md", "## A complete test file", "ts"),
    );
    expect(sh(app, "npx", ["vitest", "run", "readme-example.test.ts"])).toMatch(/Tests\s+2 passed/);
  });

  it("type-checks an import with strict and skipLibCheck false", () => {
    writeFileSync(
      join(app, "check.ts"),
      [
        'import { type RunningServer, type StartOptions, startServer } from "loyalty-mock";',
        'const options: StartOptions = { port: 0, v2AuthMode: "either" };',
        "export const started: Promise<RunningServer> = startServer(options);",
        "// Types, not any: a wrong option must be an error.",
        "// @ts-expect-error",
        'startServer({ port: "3000" });',
        "",
      ].join("\n"),
    );
    const tsconfig = {
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        module: "nodenext",
        target: "es2022",
        noEmit: true,
      },
      files: ["check.ts"],
    };
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify(tsconfig));
    expect(sh(app, "npx", ["tsc", "-p", "tsconfig.json"])).toBe("");
  });

  it("imports the control client by its subpath; the Testcontainers module asks for its optional peer (issue 48)", () => {
    const script = [
      'import { startServer, ControlClient as FromMain } from "loyalty-mock";',
      'import { ControlClient } from "loyalty-mock/control-client";',
      "const mock = await startServer({ port: 0, adminToken: 'app-secret' });",
      "const control = new ControlClient(mock.url, { adminToken: 'app-secret' });",
      "const created = await control.createProject({ template: 'demo' });",
      "await control.project(created.project_id).moveClock({ advance_seconds: 60 });",
      "console.log(JSON.stringify({ same: FromMain === ControlClient, health: (await control.health()).control,",
      "  projects: (await control.projects()).length }));",
      "await mock.close();",
      "await import('loyalty-mock/testcontainers').catch((error) => console.log(error.code, error.message));",
    ].join("\n");
    writeFileSync(join(app, "control.mjs"), script);
    const [answer, missing] = sh(app, "node", ["control.mjs"]).trim().split("\n");
    expect(JSON.parse(answer as string)).toEqual({ same: true, health: "token", projects: 3 });
    // testcontainers is an optional peer: not installed with the package, named when the module is imported.
    expect(missing).toMatch(/^ERR_MODULE_NOT_FOUND Cannot find package 'testcontainers'/);
  });

  it("runs the CI guide's recipe as written", async () => {
    writeFileSync(
      join(app, "integration.mjs"),
      "const res = await fetch(process.env.LOYALTY_BASE_URL + '/v1/locations/loc_demo_circle', {\n" +
        '  headers: { "X-App-Id": process.env.LOYALTY_APP_ID, "X-App-Token": process.env.LOYALTY_APP_TOKEN },\n' +
        "});\nif (res.status !== 200) process.exit(1);\n",
    );
    writeFileSync(join(app, "ci.sh"), docBlock("docs/guide/ci.md", "## The recipe", "sh"));
    const run = launch("bash", ["ci.sh"], { ...NPM_ENV, CI_JOB_ID: "4711" }, app);
    started.push(run);
    expect(await run.exited, run.stderr()).toEqual({ code: 0, signal: null });
    const journal = JSON.parse(readFileSync(join(app, "mock-requests.json"), "utf8"));
    expect(journal.requests).toContainEqual(
      expect.objectContaining({ method: "GET", path: "/v1/locations/loc_demo_circle", status: 200 }),
    );
    expect(readFileSync(join(app, "loyalty-mock.err"), "utf8")).toMatch(
      /^loyalty-mock listening on http:\/\/127\.0\.0\.1:\d+\n$/,
    );
  });

  it("runs the CI guide's GitHub Actions job, step by step", async () => {
    rmSync(join(app, "mock-requests.json"));
    const { env, steps } = workflowSteps(docBlock("docs/guide/ci.md", "## As a GitHub Actions job", "yaml"));
    expect(steps).toHaveLength(4);
    const githubEnv = join(dir, "github-env");
    writeFileSync(githubEnv, "");
    let failed = false;
    for (const step of steps) {
      if (failed && !step.always) continue;
      const carried = Object.fromEntries(
        readFileSync(githubEnv, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => line.split(/=(.*)/s).slice(0, 2)),
      );
      const vars = { ...NPM_ENV, ...env, ...carried, GITHUB_ENV: githubEnv, GITHUB_JOB: "integration" };
      const run = launch("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run], vars, app);
      started.push(run);
      const { code } = await run.exited;
      expect(code, `${step.run}\n${run.stderr()}`).toBe(0);
      failed ||= code !== 0;
    }
    const journal = JSON.parse(readFileSync(join(app, "mock-requests.json"), "utf8"));
    expect(journal.requests.map((entry: { path: string }) => entry.path)).toContain(
      "/v1/locations/loc_demo_circle",
    );
    const pid = Number(/MOCK_PID=(\d+)/.exec(readFileSync(githubEnv, "utf8"))?.[1]);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe("installed from a git URL", () => {
  it("builds dist/ on install (prepare) and gives the loyalty-mock command", () => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-git-"));
    try {
      const { manifest, lock } = consumerManifests([]);
      writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
      writeFileSync(join(dir, "package-lock.json"), JSON.stringify(lock, null, 2));
      const head = sh(ROOT, "git", ["rev-parse", "HEAD"]).trim();
      sh(dir, "npm", ["install", "--save-dev", `git+file://${ROOT}#${head}`], 240_000);
      expect(existsSync(join(dir, "node_modules", "loyalty-mock", "dist", "main.js"))).toBe(true);
      expect(sh(dir, join("node_modules", ".bin", "loyalty-mock"), ["--version"]).trim()).toBe(version);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
