import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

describe("README", () => {
  it("shows the library example exactly as test/readme-example.test.ts runs it", () => {
    expect(read("README.md")).toContain(`\`\`\`ts\n${read("test/readme-example.test.ts")}\`\`\`\n`);
  });
});
