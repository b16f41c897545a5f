import { describe, expect, it } from "vitest";
import { ManualClock, ProjectClock } from "../../src/platform/clock.js";

describe("clocks", () => {
  it("a project clock follows its root and moves on its own", () => {
    const root = new ManualClock("2026-11-20T10:00:00.000Z");
    const a = new ProjectClock(root);
    const b = new ProjectClock(root);
    a.advance(90);
    expect(a.iso()).toBe("2026-11-20T10:01:30.000Z");
    expect(b.iso()).toBe("2026-11-20T10:00:00.000Z");
    root.advance(10);
    expect(a.iso()).toBe("2026-11-20T10:01:40.000Z");
    b.set("2030-01-01T00:00:00.000Z");
    expect(b.iso()).toBe("2030-01-01T00:00:00.000Z");
    root.advance(1);
    expect(b.iso()).toBe("2030-01-01T00:00:01.000Z");
  });
});
