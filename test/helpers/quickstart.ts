import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { docBlock } from "./consumer.js";

/** docs/guide/python.md's pieces, for the tests that run it: from the npm package (slow) and the image (container). */
const PAGE = "docs/guide/python.md";

/** A Python with pytest: PYTHON when set, else Debian's, else the one on PATH; undefined without one. */
export function pythonWithPytest(): string | undefined {
  for (const python of [process.env.PYTHON, "/usr/bin/python3", "python3"])
    if (python && spawnSync(python, ["-m", "pytest", "--version"], { stdio: "ignore" }).status === 0)
      return python;
  return undefined;
}

/** The page's conftest.py and test file, written into `dir` (made if need be). */
export function writeQuickstart(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "conftest.py"), docBlock(PAGE, "## 2. `conftest.py`", "python"));
  writeFileSync(join(dir, "test_loyalty.py"), docBlock(PAGE, "## 3. A test", "python"));
}

/** The page's "Run it" lines, without their comments. */
export const runLines = (): string[] =>
  docBlock(PAGE, "## 4. Run it", "sh")
    .trimEnd()
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, ""));
