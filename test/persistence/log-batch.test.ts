import { describe, expect, it } from "vitest";
import { LogBatch } from "../../src/persistence/log-batch.js";

/** A batch of log lines is written in chunks, never built whole (issue 44: a state past V8's longest string). */

describe("LogBatch", () => {
  const lines = (count: number, width: number) => () =>
    Array.from({ length: count }, (_, i) => `${String(i).padStart(width, "0")}\n`);

  it("gives its text in chunks of about the size asked, each ending on a line's end", () => {
    const batch = new LogBatch(["head\n", lines(1000, 9), "end\n"]);
    const chunks = [...batch.chunks(1000)];
    expect(chunks.length).toBeGreaterThan(9);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThan(1000 + 10);
      expect(chunk.endsWith("\n")).toBe(true);
    }
    expect(chunks.join("")).toBe(`head\n${lines(1000, 9)().join("")}end\n`);
  });

  it("makes its lines again for a second write (a retry), and keeps a failed batch's before the next", () => {
    const failed = new LogBatch([lines(3, 1)]);
    const next = new LogBatch(["x\n"]);
    expect(failed.followedBy(next).text()).toBe("0\n1\n2\nx\n");
    expect(failed.text()).toBe("0\n1\n2\n");
    expect(new LogBatch().followedBy(next)).toBe(next);
    expect(next.followedBy(new LogBatch())).toBe(next);
    expect(new LogBatch().empty).toBe(true);
  });
});
