import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../helpers/files.js";
import { ROOT } from "../helpers/process.js";

/**
 * Every file a comment in src/ points at exists, and every section it quotes is in that file (issue 46): as the
 * docs' links are checked (links.test.ts), so a page renamed or a heading reworded cannot leave a comment pointing
 * nowhere. A path is read from the repository's root or from any folder from the file's own up. `documentation/`
 * paths are the vendor's public documentation (its repository), quoted as the service's source, not ours.
 */

const sourceFiles = (dir: string) => filesUnder(dir, ".ts");

/** The comments of a TypeScript file: line comments and block comments, as text. */
function commentsOf(source: string): string {
  return [...source.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'`\w])\/\/[^\n]*/g)]
    .map((match) => match[0].replace(/^\s*\*\s?/gm, " "))
    .join("\n");
}

/** A pointer: a path ending .md or .ts, and the section quoted right after a page (`page.md, "Section"`). */
const POINTER = /(?<![\w./-])((?:[\w-]+\/)*[\w.-]+\.(?:md|ts))\b(?:[,:]? +"([^"]+)")?/g;

/** A page's headings and the bold lead-ins of its lists and paragraphs, the places a quoted section may name. */
function sectionsOf(page: string): string[] {
  const headings = [...page.matchAll(/^#{1,6} +(.+?) *$/gm)].map((match) => match[1] as string);
  const bold = [...page.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1] as string);
  return [...headings, ...bold].map((text) => text.replace(/`/g, "").replace(/\.$/, ""));
}

function resolve(file: string, path: string): string | undefined {
  const folders = [ROOT];
  for (let dir = dirname(file); dir.startsWith(ROOT) && dir !== ROOT; dir = dirname(dir)) folders.push(dir);
  return folders.map((folder) => join(folder, path)).find((candidate) => existsSync(candidate));
}

const problems: string[] = [];
for (const file of sourceFiles(join(ROOT, "src"))) {
  const name = relative(ROOT, file);
  for (const [, path = "", section] of commentsOf(readFileSync(file, "utf8")).matchAll(POINTER)) {
    if (path.startsWith("documentation/")) continue;
    const found = resolve(file, path);
    if (!found) {
      problems.push(`${name}: ${path} is no file`);
      continue;
    }
    if (section === undefined || !path.endsWith(".md")) continue;
    const sections = sectionsOf(readFileSync(found, "utf8"));
    if (!sections.some((text) => text === section || text.startsWith(`${section} (`)))
      problems.push(`${name}: ${path} has no section "${section}"`);
  }
}

describe("the pointers in src/'s comments", () => {
  it("name files that exist, and sections those files have", () => {
    expect(problems).toEqual([]);
  });
});
