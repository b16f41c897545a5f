import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ControlClient, ProjectControl } from "../../src/index.js";
import { ROOT } from "../helpers/process.js";

/**
 * Issue 48: the pytest plugin's control client matches the Node one, method for method in Python's spelling
 * (moveClock is move_clock), and the plugin's version is the npm package's. Read from its source, so this stays in
 * the fast tier; the slow tier runs the plugin's own tests, which call every method against a server
 * (test/slow/pytest-plugin.test.ts).
 */
const PLUGIN = join(ROOT, "python", "pytest-loyalty-mock");
const source = readFileSync(join(PLUGIN, "src", "pytest_loyalty_mock", "control.py"), "utf8");

/** The public methods of a Python class of control.py, as written. */
function pythonMethods(name: string): string[] {
  const body = new RegExp(`\\nclass ${name}\\b[^\\n]*:\\n((?:(?: {4}.*)?\\n)+)`).exec(source)?.[1] ?? "";
  return [...body.matchAll(/^ {4}def ([a-z]\w*)\(/gm)].map((match) => match[1] as string);
}

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const nodeMethods = (prototype: object) =>
  Object.getOwnPropertyNames(prototype).filter((name) => name !== "constructor");

describe("the pytest plugin's control client", () => {
  for (const [name, prototype] of [
    ["ControlClient", ControlClient.prototype],
    ["ProjectControl", ProjectControl.prototype],
  ] as const)
    it(`${name} has the Node client's methods, in Python's spelling, and no others`, () => {
      const python = pythonMethods(name);
      expect(python.length).toBeGreaterThan(5);
      expect(python.sort()).toEqual(nodeMethods(prototype).map(snake).sort());
    });

  it("has the npm package's version", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(readFileSync(join(PLUGIN, "pyproject.toml"), "utf8")).toMatch(
      new RegExp(`\\nversion = "${version}"\\n`),
    );
  });
});
