import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../helpers/files.js";
import { ROOT } from "../helpers/process.js";

/**
 * Every relative link of the user-facing Markdown (README, CONTRIBUTING, CHANGELOG, docs/) reaches a file of the
 * repository, and a `#fragment` reaches a heading of that file by GitHub's anchor rules, so moving or renaming a
 * page or a heading cannot leave a dead link behind.
 */
const markdownFiles = (dir: string) => filesUnder(dir, ".md");

const FILES = [
  ...["README.md", "CONTRIBUTING.md", "CHANGELOG.md"].map((file) => join(ROOT, file)),
  ...markdownFiles(join(ROOT, "docs")),
];

/** The text outside fenced code blocks and inline code spans, where links are links. */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").replace(/``[^`]+``|`[^`\n]+`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function slugsOf(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  const withoutFences = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  for (const [, heading] of withoutFences.matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const text = (heading as string)
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, "")
      .replace(/[*`]/g, "");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** The relative links of a Markdown file: `[text](target)` and `![alt](target)`, without web and mail links. */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe("the documentation's relative links", () => {
  it("finds the pages", () => {
    expect(FILES.length).toBeGreaterThan(20);
  });

  for (const file of FILES) {
    it(`${relative(ROOT, file)}: every link reaches a file, and a heading where it names one`, () => {
      const text = readFileSync(file, "utf8");
      const broken: string[] = [];
      for (const link of linksOf(text)) {
        const [path = "", fragment] = link.split("#", 2);
        const target = path === "" ? file : join(dirname(file), decodeURIComponent(path));
        if (!existsSync(target)) {
          broken.push(`${link}: no file ${relative(ROOT, target)}`);
          continue;
        }
        if (fragment === undefined || statSync(target).isDirectory()) continue;
        if (!target.endsWith(".md")) continue;
        if (!slugsOf(readFileSync(target, "utf8")).has(decodeURIComponent(fragment)))
          broken.push(`${link}: no heading #${fragment} in ${relative(ROOT, target)}`);
      }
      expect(broken).toEqual([]);
    });
  }

  it("reads anchors as GitHub writes them", () => {
    const slugs = slugsOf(
      "# Persistence at scale (`npm run bench:persistence`)\n## Keys named `__proto__`, `constructor`\n" +
        "## Webhooks and the dashboard (0.6.0)\n## Notes\n## Notes\n```\n# not a heading\n```\n",
    );
    expect([...slugs]).toEqual([
      "persistence-at-scale-npm-run-benchpersistence",
      "keys-named-__proto__-constructor",
      "webhooks-and-the-dashboard-060",
      "notes",
      "notes-1",
    ]);
  });
});
