import { describe, expect, it } from "vitest";
import { metadata } from "../../src/domain/shared/schema-parts.js";

// Issue 44: the check of free-form objects for numbers JSON cannot carry back, beyond what a request body can be.

const issueOf = (value: unknown) => metadata.safeParse(value).error?.issues[0];

describe("a free-form object's numbers", () => {
  it("are walked at any depth: a fixture or an import has no depth limit, and the stack does not overflow", () => {
    const depth = 20_000;
    const text = `${'{"a":'.repeat(depth)}{"x":[1,2,1e400]}${"}".repeat(depth)}`;
    const issue = issueOf({ deep: JSON.parse(text) });
    expect(issue?.message).toBe("should be number");
    expect(issue?.path).toHaveLength(depth + 3);
    expect(issue?.path.slice(-3)).toEqual(["a", "x", 2]);
    expect(issueOf({ deep: JSON.parse(text.replace("1e400", "1e300")) })).toBeUndefined();
  });

  it("under any key, __proto__ included, and names the first in the order written", () => {
    const value = JSON.parse('{"__proto__":{"n":-1e400},"later":1e400}');
    expect(issueOf(value)?.path).toEqual(["__proto__", "n"]);
  });

  it("a NaN a library caller passes is refused too; finite numbers of any size are kept", () => {
    expect(issueOf({ n: Number.NaN })?.path).toEqual(["n"]);
    expect(issueOf({ n: Number.MAX_VALUE, m: -Number.MIN_VALUE, k: [0, -0] })).toBeUndefined();
  });
});
