import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { controlApiMarkdown, TARGET } from "../../scripts/control-api-docs.js";
import { CONTROL_ROUTES } from "../../src/http/control/table.js";

describe("docs/reference/control-api.md", () => {
  it("is what `npm run docs:control` writes from the generated document (run it after changing the table)", () => {
    expect(readFileSync(TARGET, "utf8")).toBe(controlApiMarkdown());
  });

  it("has a section for every route of the table", () => {
    const text = controlApiMarkdown();
    for (const row of CONTROL_ROUTES)
      expect(text).toContain(`### ${row.method.toUpperCase()} /__mock${row.path}\n`);
  });
});
