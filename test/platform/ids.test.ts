import { describe, expect, it } from "vitest";
import { randomString, requestId, secretToken, v1Id, v2Id } from "../../src/platform/ids.js";

describe("ids", () => {
  it("have the service's prefixes and bodies", () => {
    expect(v1Id("cust")).toMatch(/^cust_[A-Za-z0-9]{24}$/);
    expect(v2Id("lt")).toMatch(/^lt_[0-9a-f]{18}$/);
    expect(requestId()).toMatch(/^v-[0-9a-f]{18}$/);
    expect(secretToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("do not repeat", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => v2Id("linc")));
    expect(ids.size).toBe(10_000);
    const v1 = new Set(Array.from({ length: 10_000 }, () => v1Id("cust")));
    expect(v1.size).toBe(10_000);
    const tokens = new Set(Array.from({ length: 1000 }, () => secretToken()));
    expect(tokens.size).toBe(1000);
  });

  it("random strings draw every character of their charset alike, without modulo bias", () => {
    // 200 characters: 256 % 200 = 56, so a byte taken modulo 200 would make the first 56 characters twice as likely.
    const charset = Array.from({ length: 200 }, (_, i) => String.fromCharCode(0x100 + i)).join("");
    const counts = new Array<number>(200).fill(0);
    for (const char of randomString(60_000, charset)) {
      const index = charset.indexOf(char);
      counts[index] = (counts[index] ?? 0) + 1;
    }
    const mean = (from: number, to: number) =>
      counts.slice(from, to).reduce((a, b) => a + b, 0) / (to - from);
    expect(counts.every((count) => count > 0)).toBe(true);
    expect(mean(0, 56) / mean(56, 200)).toBeGreaterThan(0.9);
    expect(mean(0, 56) / mean(56, 200)).toBeLessThan(1.1);
    expect(randomString(5, "x")).toBe("xxxxx");
    // A charset longer than a byte can index still works.
    const wide = Array.from({ length: 300 }, (_, i) => String.fromCharCode(0x100 + i)).join("");
    expect([...randomString(50, wide)].every((char) => wide.includes(char))).toBe(true);
  });

  it("request ids stay unique and well-formed across refills of their random pool", () => {
    // A refill makes 256 ids; 5000 ids span about twenty.
    const ids = Array.from({ length: 5000 }, () => requestId());
    expect(new Set(ids).size).toBe(5000);
    expect(ids.every((id) => /^v-[0-9a-f]{18}$/.test(id))).toBe(true);
  });
});
