import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { blocksOf } from "../helpers/doc-blocks.js";
import { childEnv, ROOT } from "../helpers/process.js";
import { pythonForPlugin, runLines, venvWithPlugin, writeQuickstart } from "../helpers/quickstart.js";
import { docBlock, IMAGE } from "./docker.js";

/**
 * The quickstarts over the image, as written, from an empty folder, with the image under test named where the
 * page says to name another: docs/guide/python.md's test file with the pytest plugin's `--loyalty-mock-image`, docs/guide/java.md's pom
 * and classes with Maven, offline, and docs/guide/go.md's module and test files with `go test`. Each needs its
 * toolchain here (Debian's pytest; java and mvn, with the page's plugins and JUnit in the local Maven repository;
 * Debian's golang-go, which .ci/run installs): a toolchain that is missing, or a Maven that cannot resolve
 * offline, skips its test, saying why. Each page's own code stops the container and checks its exit status 0.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-quickstart-"));
  dirs.push(dir);
  return dir;
};
const readPage = (page: string) => readFileSync(join(ROOT, page), "utf8").replace(/\s+/g, " ");
const has = (command: string) => spawnSync(command, ["-version"], { stdio: "ignore" }).status === 0;

describe("the quickstarts over the image", () => {
  const python = pythonForPlugin();

  it.skipIf(python === undefined)(
    "docs/guide/python.md, 3. Run it: the pytest plugin with --loyalty-mock-image, from a new virtual environment",
    () => {
      const dir = tempDir();
      // In a dot folder, which pytest does not collect from: the plugin's copy holds its own tests.
      const venv = venvWithPlugin(python as string, join(dir, ".python"));
      writeQuickstart(join(dir, "tests"));
      const line = runLines()[1] as string;
      expect(line).toBe("python3 -m pytest -q --loyalty-mock-image loyalty-mock");
      const run = spawnSync(
        "bash",
        ["-c", line.replace(/^python3 /, `${venv} `).replace(/ loyalty-mock$/, ` ${IMAGE}`)],
        { cwd: dir, encoding: "utf8", timeout: 180_000, env: childEnv({ PYTHONDONTWRITEBYTECODE: "1" }) },
      );
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/\b4 passed\b/);
    },
    240_000,
  );

  it.skipIf(!has("java") || !has("mvn"))(
    "docs/guide/java.md, 1. The image and the build, 2. `LoyaltyMock.java`, 3. A test, 4. Run it: mvn test, offline",
    (context) => {
      const page = "docs/guide/java.md";
      const dir = tempDir();
      mkdirSync(join(dir, "src", "test", "java"), { recursive: true });
      writeFileSync(join(dir, "pom.xml"), docBlock(page, "## 1. The image and the build", "xml"));
      writeFileSync(
        join(dir, "src", "test", "java", "LoyaltyMock.java"),
        docBlock(page, "## 2. `LoyaltyMock.java`", "java"),
      );
      writeFileSync(
        join(dir, "src", "test", "java", "LoyaltyTest.java"),
        docBlock(page, "## 3. A test", "java"),
      );
      // The run line as written; the image under test named as the page says to name another (issue 47: the
      // page ran loyalty-mock:0.10.0, which no page builds).
      const line = docBlock(page, "## 4. Run it", "sh").replace(/\s+#.*\n$/, "");
      expect(line).toBe("mvn test");
      expect(readPage(page)).toContain("`mvn test -DloyaltyMock.image=loyalty-mock:0.12.0`");
      // Offline: these machines reach no Maven repository; what the build needs must be in the local one already.
      const command = `${line.replace(/^mvn /, "mvn -o -B ")} -DloyaltyMock.image=${IMAGE}`;
      const run = spawnSync("bash", ["-c", command], { cwd: dir, encoding: "utf8", timeout: 300_000 });
      if (run.status !== 0 && /offline mode and the artifact|could not be resolved/.test(run.stdout))
        context.skip("Maven cannot resolve the page's plugins and JUnit offline here");
      expect(run.status, run.stdout.slice(-4000)).toBe(0);
      expect(run.stdout).toMatch(/Tests run: 2, Failures: 0, Errors: 0, Skipped: 0/);
    },
    360_000,
  );

  it.skipIf(spawnSync("go", ["version"], { stdio: "ignore" }).status !== 0)(
    "docs/guide/go.md, 1. The image and the module, 2. `loyalty_test.go`, 3. Run it: go test, from an empty folder",
    () => {
      const page = "docs/guide/go.md";
      const dir = tempDir();
      // No module proxy: the page's tests need the standard library only, and these machines reach none.
      const env = { ...process.env, GOPROXY: "off", GOFLAGS: "-mod=mod", LOYALTY_IMAGE: IMAGE };
      const sh = (line: string) =>
        spawnSync("bash", ["-c", line], { cwd: dir, encoding: "utf8", timeout: 300_000, env });
      const init = docBlock(page, "## 1. The image and the module", "sh").trim();
      expect(init).toBe("go mod init example.com/app");
      expect(sh(init).status).toBe(0);
      const [test, writer] = blocksOf(page).filter((block) => block.lang === "go");
      writeFileSync(join(dir, "loyalty_test.go"), test?.text as string);
      writeFileSync(join(dir, "syncwriter_test.go"), writer?.text as string);
      const line = docBlock(page, "## 3. Run it", "sh").replace(/\s+#.*\n$/, "");
      expect(line).toBe("go test ./...");
      expect(readPage(page)).toContain("`LOYALTY_IMAGE=loyalty-mock:0.12.0 go test ./...`");
      const run = sh(`${line} -v`);
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/--- PASS: TestANewMemberGetsALoyaltyCard/);
      expect(run.stdout).toMatch(/--- PASS: TestATokenExpiresWhenTheClockMoves/);
      expect(run.stdout).toMatch(/^ok\s+example\.com\/app\b/m);
    },
    360_000,
  );
});
