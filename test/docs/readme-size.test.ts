import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process.js";

/** The README is what a newcomer reads first: what it is, how to start, where the rest is. The rest is in docs/. */
describe("README", () => {
  it("is at most 300 lines", () => {
    const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length - 1;
    expect(lines).toBeLessThanOrEqual(300);
  });
});
