import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

it("docs/guide/snapshots.md shows the example exactly as test/docs/snapshot-example.test.ts runs it", () => {
  expect(read("docs/guide/snapshots.md")).toContain(
    `\`\`\`ts\n${read("test/docs/snapshot-example.test.ts")}\`\`\`\n`,
  );
});
