import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "./process.js";

/**
 * Copies the project as it stands (committed or not, without what git ignores) into `to`, as a clone of this
 * commit with the working tree's changes would hold it. No node_modules: a worktree's may be a link, which git
 * lists as `.gitignore`'s `node_modules` is a folder pattern to it; a file git lists but the tree no longer has
 * (deleted, not yet committed) is left out.
 */
export function copyProjectTree(to: string): void {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter((path) => path !== "" && path !== "node_modules" && existsSync(join(ROOT, path)));
  for (const path of files) {
    mkdirSync(dirname(join(to, path)), { recursive: true });
    cpSync(join(ROOT, path), join(to, path));
  }
}

/**
 * Every file under `dir` (its folders included) whose name ends with `suffix`, as `dir` joined with its path: what
 * the docs and structure tests read (the pages, the sources).
 */
export function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name), suffix)
      : entry.name.endsWith(suffix)
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * The files docs/internals/adding-an-operation.md says a new operation touches: the first column of the table
 * after its marker, each a path or a pattern (`test/api/<operation>.test.ts`).
 */
export function filesOfNewOperation(page: string): string[] {
  const marker = page.indexOf("<!-- the files of a new operation");
  if (marker === -1) throw new Error("adding-an-operation.md: the marker of its list of files is missing");
  const table = page.slice(marker).split("\n\n")[1] ?? "";
  return [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1] as string);
}

/** Whether a file is one of the page's list: a path, or a pattern whose `<...>` parts stand for one name each. */
export function listedIn(files: readonly string[], file: string): boolean {
  return files.some((listed) =>
    new RegExp(`^${listed.replace(/[.]/g, "\\.").replace(/<[^>]+>/g, "[^/]+")}$`).test(file),
  );
}
