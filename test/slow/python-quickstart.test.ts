import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerManifests, docBlock } from "../helpers/consumer.js";
import { childEnv, ROOT } from "../helpers/process.js";
import { pythonWithPytest, runLines, writeQuickstart } from "../helpers/quickstart.js";

/**
 * docs/guide/python.md as a Python team follows it: the package packed, installed by the page's own command into a
 * new application folder (offline, from npm's cache, as test/slow/install.test.ts does), the page's conftest.py and
 * test file written in its tests/ folder, and its "Run it" line run with Debian's pytest (python3-pytest, which .ci/run installs).
 * The conftest asserts the server's exit status 0 on terminate() at the end of the session. The image variant
 * runs in the container tier (test/container/quickstarts.test.ts).
 */
const PAGE = "docs/guide/python.md";
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const NPM_ENV = { npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false" };

const python = pythonWithPytest();

describe.skipIf(python === undefined)(`${PAGE}, from a tarball installed in a new application folder`, () => {
  let dir: string;
  let app: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-python-"));
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
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("1. Install: the page's npm line installs this version's tarball", () => {
    const install = docBlock(PAGE, "## 1. Install", "sh").replace(/\s+#.*\n$/, "");
    expect(install).toBe(`npm install --save-dev ./loyalty-mock-${version}.tgz`);
    execFileSync("bash", ["-c", install], {
      cwd: app,
      env: childEnv(NPM_ENV),
      stdio: "pipe",
      timeout: 180_000,
    });
  }, 240_000);

  it("2. `conftest.py`, 3. A test, 4. Run it: pytest passes, the server started and stopped with exit 0", () => {
    // In tests/, as most Python projects keep them: the conftest finds node_modules in the folder above
    // (issue 47: it looked only beside itself, and every test failed with FileNotFoundError).
    writeQuickstart(join(app, "tests"));
    const [line] = runLines();
    expect(line).toBe("python3 -m pytest -q");
    const run = spawnSync("bash", ["-c", (line as string).replace(/^python3 /, `${python} `)], {
      cwd: app,
      encoding: "utf8",
      timeout: 120_000,
      env: childEnv({ PYTHONDONTWRITEBYTECODE: "1" }),
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/\b3 passed\b/);
    expect(run.stdout).not.toMatch(/error/i);
  }, 180_000);
});
