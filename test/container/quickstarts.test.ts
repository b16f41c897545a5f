import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv } from "../helpers/process.js";
import { pythonWithPytest, runLines, writeQuickstart } from "../helpers/quickstart.js";
import { docBlock, IMAGE } from "./docker.js";

/**
 * The quickstarts over the image, as written, with the image under test named where the page names its own:
 * docs/guide/python.md's conftest with `--loyalty-mock-image`, and docs/guide/java.md's pom and classes with
 * Maven, offline. Each needs its toolchain here (Debian's pytest; java and mvn, with the page's plugins and JUnit
 * in the local Maven repository): a toolchain that is missing, or a Maven that cannot resolve offline, skips its
 * test, saying why. Each page's own code stops the container and checks its exit status 0.
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
const has = (command: string) => spawnSync(command, ["-version"], { stdio: "ignore" }).status === 0;

describe("the quickstarts over the image", () => {
  const python = pythonWithPytest();

  it.skipIf(python === undefined)("docs/guide/python.md, 4. Run it: pytest with --loyalty-mock-image", () => {
    const dir = tempDir();
    writeQuickstart(dir);
    const line = runLines()[1] as string;
    expect(line).toBe("python3 -m pytest -q --loyalty-mock-image loyalty-mock");
    const run = spawnSync(
      "bash",
      ["-c", line.replace(/^python3 /, `${python} `).replace(/ loyalty-mock$/, ` ${IMAGE}`)],
      { cwd: dir, encoding: "utf8", timeout: 120_000, env: childEnv({ PYTHONDONTWRITEBYTECODE: "1" }) },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/\b3 passed\b/);
  });

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
      const line = docBlock(page, "## 4. Run it", "sh")
        .split("\n")[1]
        ?.replace(/\s+#.*$/, "") as string;
      expect(line).toMatch(/^mvn test -DloyaltyMock\.image=loyalty-mock:\S+$/);
      // Offline: these machines reach no Maven repository; what the build needs must be in the local one already.
      const command = line.replace(/^mvn /, "mvn -o -B ").replace(/=loyalty-mock:\S+$/, `=${IMAGE}`);
      const run = spawnSync("bash", ["-c", command], { cwd: dir, encoding: "utf8", timeout: 300_000 });
      if (run.status !== 0 && /offline mode and the artifact|could not be resolved/.test(run.stdout))
        context.skip("Maven cannot resolve the page's plugins and JUnit offline here");
      expect(run.status, run.stdout.slice(-4000)).toBe(0);
      expect(run.stdout).toMatch(/Tests run: 2, Failures: 0, Errors: 0, Skipped: 0/);
    },
    360_000,
  );
});
