import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The mutation testing page's table is read from the summary a run commits (test/mutation/summary.json, written by
 * scripts/mutation-summary.ts from Stryker's incremental record, which stays out of git).
 */

const COLUMNS = [
  "mutants",
  "killed",
  "timeout",
  "survived",
  "noCoverage",
  "compileErrors",
  "ignored",
] as const;
type Counts = Record<(typeof COLUMNS)[number], number>;

const summary = JSON.parse(readFileSync("test/mutation/summary.json", "utf8")) as {
  files: Record<string, Counts>;
};
const page = readFileSync("docs/internals/testing.md", "utf8");

/** The files a row of the table names: one file, a folder and what is under it, the top level of one, or all. */
function matches(cell: string): (path: string) => boolean {
  if (cell === "everything run") return () => true;
  if (cell === "`src/domain/`, all of it") return (path) => path.startsWith("src/domain/");
  const top = cell.match(/^`(.+)\/\*\.ts` \(top level\)$/);
  const folder = top?.[1];
  if (folder !== undefined)
    return (path) => path.startsWith(`${folder}/`) && !path.slice(folder.length + 1).includes("/");
  const named = cell.replace(/`/g, "");
  return named.endsWith("/") ? (path) => path.startsWith(named) : (path) => path === named;
}

function scoreOf(counts: Counts): string {
  const caught = counts.killed + counts.timeout;
  const total = caught + counts.survived + counts.noCoverage;
  return total === 0 ? "n/a" : `${((100 * caught) / total).toFixed(1)}%`;
}

describe("docs/internals/testing.md, mutation testing", () => {
  const section = page.slice(page.indexOf("### Where it stands"));
  const rows = section
    .split("\n")
    .filter((line) => line.startsWith("| `") || line.startsWith("| everything"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

  it("has a row for every folder the summary holds", () => {
    expect(rows.length).toBeGreaterThan(10);
  });

  it.each(rows.map((row) => [row[0], row] as const))("%s: the figures are the summary's", (_name, row) => {
    const [cell = "", ...figures] = row;
    const match = matches(cell);
    const counts = Object.fromEntries(COLUMNS.map((column) => [column, 0])) as Counts;
    let files = 0;
    for (const [path, file] of Object.entries(summary.files))
      if (match(path)) {
        files += 1;
        for (const column of COLUMNS) counts[column] += file[column];
      }
    expect(files).toBeGreaterThan(0);
    expect(figures).toEqual([...COLUMNS.map((column) => String(counts[column])), scoreOf(counts)]);
  });
});
