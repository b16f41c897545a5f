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
