import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { inWords, OPERATION_COUNT, OPERATIONS } from "../../src/http/operations/table.js";
import { filesUnder } from "../helpers/files.js";
import { ROOT } from "../helpers/process.js";

/**
 * How many operations loyalty-mock emulates is a fact of the operation table (OPERATIONS.length): the help texts
 * count the table, and every page that writes the count in words ("the six operations"), the image's description
 * and .env.example included, is held to it here, so a new row fails until each says so. A part of them is not
 * their count: a proportion of a measurement ("five of the six operations", a figure of its time), the rest ("the
 * other five operations"), a kind ("the two operations that write"); nor is the contract's file name
 * (`six-operations.openapi.json`).
 */
const markdownFiles = (dir: string) => filesUnder(dir, ".md");

const NUMBER_WORDS = Array.from({ length: 21 }, (_, count) => inWords(count)).filter((word) =>
  /^[a-z]+$/.test(word),
);
const COUNT = new RegExp(
  `(?<!\\b(?:of|other) (?:the )?)\\b(${NUMBER_WORDS.join("|")}) (?:HTTP )?operations\\b(?! that)`,
  "gi",
);

/** Each count of operations written in words in `text`, line breaks read as spaces. */
function countsIn(text: string): string[] {
  return [...text.replace(/\s+/g, " ").matchAll(COUNT)].map((match) => (match[1] as string).toLowerCase());
}

describe("the count of operations", () => {
  it("is the table's length, in words", () => {
    expect(OPERATION_COUNT).toBe(inWords(OPERATIONS.length));
    expect(inWords(6)).toBe("six");
    expect(inWords(13)).toBe("13");
  });

  it("finds counts across line breaks, and leaves proportions and file names", () => {
    expect(countsIn("emulates six\noperations; the Six HTTP operations")).toEqual(["six", "six"]);
    expect(
      countsIn(
        "five of the six operations, four of six operations, the other five operations, the two operations that " +
          "write, six-operations.openapi.json",
      ),
    ).toEqual([]);
  });

  it("is what every page and the package's description write", () => {
    const pages = [
      ...["README.md", "CONTRIBUTING.md", "Dockerfile", ".env.example"].map((file) => join(ROOT, file)),
      ...markdownFiles(join(ROOT, "docs")),
    ];
    const wrong: string[] = [];
    let found = 0;
    for (const page of pages)
      for (const count of countsIn(readFileSync(page, "utf8"))) {
        found++;
        if (count !== OPERATION_COUNT) wrong.push(`${relative(ROOT, page)}: ${count}`);
      }
    const { description } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      description: string;
    };
    expect(countsIn(description)).toEqual([OPERATION_COUNT]);
    expect(found).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });
});
