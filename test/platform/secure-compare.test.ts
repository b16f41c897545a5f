import { describe, expect, it } from "vitest";
import { secureEqual } from "../../src/platform/secure-compare.js";

describe("secureEqual", () => {
  it("compares secrets of any length", () => {
    expect(secureEqual("demo-app-token", "demo-app-token")).toBe(true);
    expect(secureEqual("demo-app-token", "demo-app-tokem")).toBe(false);
    expect(secureEqual("short", "a much longer secret")).toBe(false);
    expect(secureEqual("", "")).toBe(true);
  });
});
