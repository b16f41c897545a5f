import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe("README and the library guide", () => {
  it("docs/guide/library.md shows the library example exactly as test/docs/library-guide-example.test.ts runs it", () => {
    expect(read("docs/guide/library.md")).toContain(
      `\`\`\`ts\n${read("test/docs/library-guide-example.test.ts")}\`\`\`\n`,
    );
  });

  it("README shows the ten-line example exactly as test/docs/readme-library.test.ts runs it", () => {
    expect(read("README.md")).toContain(`\`\`\`ts\n${read("test/docs/readme-library.test.ts")}\`\`\`\n`);
  });
});
