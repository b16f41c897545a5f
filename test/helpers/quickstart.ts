import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { docBlock } from "./consumer.js";
import { ROOT } from "./process.js";

/**
 * docs/guide/python.md's pieces and the pytest plugin (python/pytest-loyalty-mock), for the tests that run them:
 * from the npm package (slow) and the image (container).
 */
const PAGE = "docs/guide/python.md";
export const PLUGIN = join(ROOT, "python", "pytest-loyalty-mock");

/**
 * A Python that can take the plugin into a new virtual environment offline: PYTHON when set, else Debian's, else
 * the one on PATH, with pytest, venv (and its pip), setuptools and wheel to build it; undefined without one.
 */
export function pythonForPlugin(): string | undefined {
  const check = "import pytest, setuptools, wheel, venv, ensurepip";
  for (const python of [process.env.PYTHON, "/usr/bin/python3", "python3"])
    if (python && spawnSync(python, ["-c", check], { stdio: "ignore" }).status === 0) return python;
  return undefined;
}

/**
 * A new virtual environment in `dir` that sees the system's packages (pytest, setuptools, wheel: nothing is
 * downloaded) and nothing else of ours; its python.
 */
export function newVenv(python: string, dir: string): string {
  execFileSync(python, ["-m", "venv", "--system-site-packages", dir], { stdio: "pipe", timeout: 120_000 });
  return join(dir, "bin", "python");
}

/** pip, offline: no index, and the build's tools (setuptools, wheel) taken from the environment, not fetched. */
export const PIP_OFFLINE = ["--no-index", "--no-build-isolation", "--disable-pip-version-check"];

/** The plugin's folder copied to `dir` (pip builds in the source folder; the repository's stays clean). */
export function copyPlugin(dir: string): string {
  cpSync(PLUGIN, dir, {
    recursive: true,
    filter: (source) => !/(__pycache__|\.egg-info|[/\\]build)$/.test(source),
  });
  return dir;
}

/** A new virtual environment in `dir` with the plugin installed from a copy of its folder; its python. */
export function venvWithPlugin(python: string, dir: string): string {
  const venvPython = newVenv(python, join(dir, "venv"));
  const source = copyPlugin(join(dir, "pytest-loyalty-mock"));
  execFileSync(venvPython, ["-m", "pip", "install", "--quiet", ...PIP_OFFLINE, source], {
    stdio: "pipe",
    timeout: 180_000,
  });
  return venvPython;
}

/** The page's test file, written into `dir` (made if need be). */
export function writeQuickstart(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "test_loyalty.py"), docBlock(PAGE, "## 2. A test file", "python"));
}

/** The lines of one of the page's sh blocks, without their comments. */
const linesOf = (heading: string): string[] =>
  docBlock(PAGE, heading, "sh")
    .trimEnd()
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, ""));

export const installLines = (): string[] => linesOf("## 1. Install");
export const runLines = (): string[] => linesOf("## 3. Run it");
