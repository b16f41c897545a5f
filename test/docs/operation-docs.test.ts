import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OPERATION_PAGES, operationPages, sectionsOf, withTable } from "../../scripts/operations-docs.js";
import { OPERATIONS } from "../../src/http/operations/table.js";
import { ROOT } from "../helpers/process.js";

/**
 * The tables of the operations in the docs (README.md, docs/reference/operations.md, docs/reference/
 * authentication.md) are generated from the operation table by `npm run docs:operations`: each page must be what
 * the script writes, so a new row is listed, with its credentials, scopes and section, once the script runs.
 */
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

describe("the generated tables of the operations", () => {
  for (const { file, text } of operationPages())
    it(`${file} is what npm run docs:operations writes`, () => {
      expect(read(file), "run npm run docs:operations").toBe(text);
    });

  it("list every row, with its credentials and its section", () => {
    const sections = sectionsOf(read("docs/reference/operations.md"));
    expect(OPERATIONS.filter((row) => !sections.has(row.name)).map((row) => row.name)).toEqual([]);
    for (const file of OPERATION_PAGES) {
      const text = read(file);
      for (const row of OPERATIONS) expect(text, file).toContain(`| \`${row.method} ${row.path}\``);
    }
  });

  it("a row without a section, or a page without the markers, is refused, not written", () => {
    const page = read("docs/reference/operations.md").replace("<!-- operation: getLocation -->", "");
    expect(() => withTable("README.md", read("README.md"), page)).toThrow(
      "has no section for getLocation: put <!-- operation: getLocation --> under its heading",
    );
    expect(() => withTable("README.md", "# no markers", read("docs/reference/operations.md"))).toThrow(
      "README.md: the markers of the generated table are missing",
    );
  });
});
