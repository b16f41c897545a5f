import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePathPattern } from "../../src/emulation/path-pattern.js";
import { FUZZ_SEED } from "../fuzz/harness.js";

/** The regular expression the patterns used to compile to: right, but exponential on near misses. */
function reference(pattern: string): (path: string) => boolean {
  let source = "";
  for (const token of pattern.split(/(\*\*|\*|\{[^}/]*\})/)) {
    if (token === "**") source += ".*";
    else if (token === "*") source += "[^/]*";
    else if (token.startsWith("{") && token.endsWith("}")) source += "[^/]+";
    else source += token.replace(/[.+?^$()|[\]\\]/g, "\\$&");
  }
  const regex = new RegExp(`^${source}$`);
  return (path) => regex.test(path);
}

describe("path patterns of fault rules and journal filters", () => {
  it("match exactly what the regular expression they replace matched (generated patterns and paths)", () => {
    const piece = fc.constantFrom("a", "b", "/", "*", "**", "{id}", ".", "a.b");
    const pattern = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => `/${parts.join("")}`);
    const path = fc
      .array(fc.constantFrom("a", "b", "/", ".", "x"), { maxLength: 10 })
      .map((p) => `/${p.join("")}`);
    fc.assert(
      fc.property(pattern, path, (p, q) => {
        expect(compilePathPattern(p)(q)).toBe(reference(p)(q));
      }),
      { seed: FUZZ_SEED, numRuns: 5000 },
    );
  });

  it("take time linear in the path for a pattern of many wildcards (a regular expression would hang here)", () => {
    // The regex equivalent of this pattern needs minutes on a 40-character near miss and years on this one.
    const pattern = `/${"*a".repeat(40)}b`;
    const nearMiss = `/${"a".repeat(2000)}`;
    expect(compilePathPattern(pattern)(nearMiss)).toBe(false);
    expect(compilePathPattern(pattern)(`${nearMiss}b`)).toBe(true);
    expect(compilePathPattern("/**/x/**")(`/${"a/".repeat(2000)}x/y`)).toBe(true);
  });
});

describe("path patterns", () => {
  const rows: [string, string, boolean][] = [
    ["/v1/events", "/v1/events", true],
    ["/v1/events", "/v1/events/", false],
    ["/v1/locations/{locationId}", "/v1/locations/loc_1", true],
    ["/v1/locations/{locationId}", "/v1/locations/", false],
    ["/v1/locations/{locationId}", "/v1/locations/a/b", false],
    ["/v1/locations/loc_*", "/v1/locations/loc_1", true],
    ["/v1/locations/loc_*", "/v1/locations/loc_1/x", false],
    ["/v2/**", "/v2/loyalties/incentives/linc_1", true],
    ["/v2/**", "/v1/events", false],
    ["/v1/loyalties/(x)", "/v1/loyalties/(x)", true],
    ["/v1/a.b", "/v1/aXb", false],
  ];
  for (const [pattern, path, expected] of rows) {
    it(`${pattern} ${expected ? "matches" : "does not match"} ${path}`, () => {
      expect(compilePathPattern(pattern)(path)).toBe(expected);
    });
  }
});
