import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerManifests } from "../helpers/consumer.js";
import {
  childEnv,
  freePort,
  killGroup,
  launch,
  ROOT,
  type Started,
  waitForStderr,
} from "../helpers/process.js";
import {
  copyPlugin,
  installLines,
  newVenv,
  PIP_OFFLINE,
  pythonForPlugin,
  runLines,
  writeQuickstart,
} from "../helpers/quickstart.js";

/**
 * Issue 48: the pytest plugin (python/pytest-loyalty-mock) as docs/guide/python.md has a Python team use it. The
 * npm package packed and installed by the page's own line into a new application folder (offline, from npm's
 * cache, as test/slow/install.test.ts does); the plugin installed by the page's pip lines into new virtual
 * environments, from a clone beside the application and from a git URL with `#subdirectory=`, offline (no index;
 * pytest, setuptools and wheel are Debian's, seen through --system-site-packages); then the page's test file run by
 * its "Run it" lines, a project per test, in more than one folder layout, and the plugin's own tests. The image
 * line runs in the container tier (test/container/quickstarts.test.ts). .ci/run installs what it needs
 * (python3-pytest, python3-venv, python3-setuptools, python3-wheel); without them the file is skipped and says so.
 */
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const NPM_ENV = { npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false" };
const python = pythonForPlugin();

describe.skipIf(python === undefined)(
  "docs/guide/python.md: the pytest plugin in a new application folder",
  () => {
    let dir: string;
    let app: string;
    let venv: string;
    const started: Started[] = [];
    const [npmLine, cloneLine, urlLine] = installLines();
    /** A page's python3 line, run with the virtual environment's Python (and pip, offline). */
    const withVenv = (line: string, python: string) =>
      line
        .replace(/^python3 -m pip install /, `${python} -m pip install ${PIP_OFFLINE.join(" ")} `)
        .replace(/^python3 /, `${python} `);
    const sh = (line: string, cwd = app, env: Record<string, string> = {}) =>
      spawnSync("bash", ["-c", line], {
        cwd,
        encoding: "utf8",
        timeout: 180_000,
        env: childEnv({ PYTHONDONTWRITEBYTECODE: "1", ...env }),
      });

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "loyalty-mock-pytest-"));
      app = join(dir, "app");
      mkdirSync(app);
      execFileSync("npm", ["pack", "--pack-destination", app, "--silent"], {
        cwd: ROOT,
        stdio: "pipe",
        timeout: 180_000,
      });
      // A lockfile made from this repository's, so that npm installs offline from its cache (helpers/consumer.ts).
      const { manifest, lock } = consumerManifests([]);
      writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));
      writeFileSync(join(app, "package-lock.json"), JSON.stringify(lock, null, 2));
      // "A clone beside it", as the page's second line reads it: the plugin's folder at the clone's path.
      copyPlugin(join(dir, "loyalty-mock", "python", "pytest-loyalty-mock"));
      venv = newVenv(python as string, join(dir, "venv"));
    }, 300_000);
    afterAll(() => {
      for (const run of started) killGroup(run, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    });

    it("1. Install: the npm line installs this version's tarball", () => {
      expect(npmLine).toBe(`npm install --save-dev ./loyalty-mock-${version}.tgz`);
      const run = sh(npmLine as string, app, NPM_ENV);
      expect(run.status, run.stderr).toBe(0);
    }, 240_000);

    it("1. Install: pip installs the plugin from the clone into the new environment; pytest finds its entry point", () => {
      expect(cloneLine).toBe("python3 -m pip install ../loyalty-mock/python/pytest-loyalty-mock");
      const run = sh(withVenv(cloneLine as string, venv));
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
      const plugin = sh(
        `${venv} -c 'import importlib.metadata as m; print(m.version("pytest-loyalty-mock")); print([e.value for e in m.entry_points(group="pytest11") if e.name == "loyalty_mock"])'`,
      );
      expect(plugin.stdout.trim().split("\n")).toEqual([version, "['pytest_loyalty_mock.plugin']"]);
    }, 240_000);

    it("1. Install: pip installs it from a git URL with #subdirectory=, at the version's tag", () => {
      expect(urlLine).toBe(
        `python3 -m pip install "git+https://github.com/OWNER/loyalty-mock.git@v${version}#subdirectory=python/pytest-loyalty-mock"`,
      );
      // The repository as a git URL reaches it, but on this machine: its python/ folder committed and tagged.
      const repo = join(dir, "repo");
      cpSync(join(dir, "loyalty-mock", "python"), join(repo, "python"), { recursive: true });
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
          cwd: repo,
          stdio: "pipe",
        });
      git("init", "-q");
      git("add", ".");
      git("commit", "-qm", "plugin");
      git("tag", `v${version}`);
      const other = newVenv(python as string, join(dir, "venv-git"));
      const line = withVenv(urlLine as string, other).replace(
        "https://github.com/OWNER/loyalty-mock.git",
        `file://${repo}`,
      );
      const run = sh(line);
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
      expect(
        sh(`${other} -c 'import pytest_loyalty_mock; print(pytest_loyalty_mock.ControlClient.__name__)'`)
          .stdout,
      ).toBe("ControlClient\n");
    }, 240_000);

    it("2. A test file, 3. Run it: a project per test, from tests/ and from a deeper folder", () => {
      const [line] = runLines();
      expect(line).toBe("python3 -m pytest -q");
      // In tests/, as most Python projects keep them; then a folder deeper down, run from the top and from inside.
      writeQuickstart(join(app, "tests"));
      const top = sh(withVenv(line as string, venv));
      expect(top.status, `${top.stdout}\n${top.stderr}`).toBe(0);
      expect(top.stdout).toMatch(/\b4 passed\b/);
      rmSync(join(app, "tests"), { recursive: true });
      const deeper = join(app, "src", "shop", "tests");
      writeQuickstart(deeper);
      for (const cwd of [app, deeper]) {
        const run = sh(withVenv(line as string, venv), cwd);
        expect(run.status, `${cwd}: ${run.stdout}\n${run.stderr}`).toBe(0);
        expect(run.stdout).toMatch(/\b4 passed\b/);
      }
      rmSync(join(app, "src"), { recursive: true });
      writeQuickstart(join(app, "tests"));
    }, 240_000);

    it("the plugin's own tests: every method of its control client, against the installed package", () => {
      const run = sh(
        withVenv(
          `python3 -m pytest -q ${join(dir, "loyalty-mock", "python", "pytest-loyalty-mock", "tests")}`,
          venv,
        ),
      );
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/\b8 passed\b/);
    }, 180_000);

    it("a failed test's report shows its project's journal", () => {
      const failing = join(app, "failing");
      mkdirSync(failing);
      writeFileSync(
        join(failing, "test_failing.py"),
        'def test_it(loyalty_project):\n    loyalty_project.request("GET", "/v1/locations/nope")\n    assert False\n',
      );
      const run = sh(withVenv("python3 -m pytest -q -p no:cacheprovider test_failing.py", venv), failing);
      expect(run.status, run.stdout).toBe(1);
      expect(run.stdout).toMatch(
        /-+ loyalty-mock journal -+\nGET \/v1\/locations\/nope -> 404 not_found: Cannot find location with id nope\n/,
      );
      rmSync(failing, { recursive: true });
    }, 180_000);

    it("3. Run it with --loyalty-mock-url: a server already running, its token from LOYALTY_MOCK_ADMIN_TOKEN", async () => {
      const line = runLines()[2] as string;
      expect(line).toBe('python3 -m pytest -q --loyalty-mock-url "$LOYALTY_BASE_URL"');
      const port = await freePort();
      const server = launch(join(app, "node_modules", ".bin", "loyalty-mock"), ["--port", String(port)], {
        LOYALTY_MOCK_ADMIN_TOKEN: "job-token",
      });
      started.push(server);
      const [, url] = await waitForStderr(server, /loyalty-mock listening on (\S+)\n/);
      const run = sh(withVenv(line, venv), app, {
        LOYALTY_BASE_URL: url as string,
        LOYALTY_MOCK_ADMIN_TOKEN: "job-token",
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/\b4 passed\b/);
      // Each test's project deleted after it: the server holds its own two again.
      const projects = (await (
        await fetch(`${url}/__mock/projects`, { headers: { "X-Mock-Admin-Token": "job-token" } })
      ).json()) as {
        total: number;
      };
      expect(projects.total).toBe(2);
      killGroup(server, "SIGTERM");
      expect(await server.exited).toEqual({ code: 0, signal: null });
    }, 180_000);
  },
);
