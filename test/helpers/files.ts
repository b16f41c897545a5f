import { readdirSync } from "node:fs";
import { join } from "node:path";

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
