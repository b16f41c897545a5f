import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../helpers/files.js";
import { ROOT } from "../helpers/process.js";

/**
 * The docs name files of this repository in code spans (`src/http/route.ts`, `test/api/members.test.ts`); a file
 * moved or removed without its docs leaves a newcomer looking for nothing. Links are checked by links.test.ts; this
 * checks the names in code spans. The internals pages name source files relative to src/ (`http/route.ts`).
 */
const TOP = ["src", "test", "bench", "scripts", "ui", "fixtures", "docs"];
/** Folders the tools write and git ignores: named in the docs, present only after a run. */
const WRITTEN = ["bench/results/"];
const SRC_DIRS = readdirSync(join(ROOT, "src"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const markdownFiles = (dir: string) => filesUnder(dir, ".md");

/** Code spans that read as a path of this repository: a known top folder, no placeholder, glob or variable. */
function namedPaths(text: string, internals: boolean): string[] {
  const paths: string[] = [];
  for (const [, span] of text.matchAll(/`([^`\s]+)`/g)) {
    const path = (span as string).replace(/[.,:;)]+$/, "");
    if (/[*{}<>$…]|FILE|\bN\b/.test(path) || !/^[\w./-]+$/.test(path)) continue;
    const top = path.split("/")[0] as string;
    if (WRITTEN.some((folder) => path.startsWith(folder))) continue;
    if (TOP.includes(top) && path.includes("/")) paths.push(path);
    else if (internals && SRC_DIRS.includes(top) && /\.ts$/.test(path)) paths.push(`src/${path}`);
  }
  return paths;
}

describe("file names in the docs", () => {
  const files = [
    join(ROOT, "README.md"),
    join(ROOT, "CONTRIBUTING.md"),
    ...markdownFiles(join(ROOT, "docs")),
  ];

  it("finds the docs and the names in them", () => {
    const all = files.flatMap((file) => namedPaths(readFileSync(file, "utf8"), true));
    expect(all).toContain("src/http/route.ts");
  });

  for (const file of files) {
    const internals = relative(ROOT, file).startsWith("docs/internals/");
    it(`${relative(ROOT, file)}: every file it names in code exists`, () => {
      const missing = namedPaths(readFileSync(file, "utf8"), internals).filter(
        (path) => !existsSync(join(ROOT, path)),
      );
      expect(missing).toEqual([]);
    });
  }
});
