import { describe, expect, it } from "vitest";
import { clockNote, seedNote } from "../../src/cli/start-notes.js";
import { buildWorld } from "../helpers/world.js";

// The lines the bin says after its address; test/slow/cli-seed.test.ts sees them said.

describe("the start lines about a seed and the clocks (issue 38)", () => {
  it("a seed on loopback is for tests; on an address others reach it warns that keys and tokens are predictable", () => {
    expect(seedNote(undefined, "0.0.0.0")).toBeUndefined();
    expect(seedNote("ci", "127.0.0.1")).toBe(
      "seeded: ids, codes, tokens and secrets are predictable; for tests only",
    );
    expect(seedNote("ci", "::1")).toBe(seedNote("ci", "127.0.0.1"));
    for (const host of ["0.0.0.0", "::", "10.0.0.5"])
      expect(seedNote("ci", host)).toBe(
        `warning: seeded, and reachable on ${host}: ids, codes, tokens and secrets are predictable, so anyone who ` +
          "knows the seed can compute this server's app tokens, access tokens and webhook secrets; keep a seeded " +
          "server on loopback, or unset LOYALTY_MOCK_SEED",
      );
  });

  it("without a state file restored, the frozen clock setting speaks for every project, with the instant held", () => {
    const { registry } = buildWorld();
    expect(clockNote(registry.list(), undefined, false)).toBeUndefined();
    // In UTC with milliseconds, as the answers write it, not as typed (issue 47: `+02:00` was echoed).
    expect(clockNote(registry.list(), "2026-01-01T00:00:00Z", false)).toBe(
      "every project clock frozen at 2026-01-01T00:00:00.000Z",
    );
    expect(clockNote(registry.list(), "2026-01-01T09:00:00+02:00", false)).toBe(
      "every project clock frozen at 2026-01-01T07:00:00.000Z",
    );
  });

  it("restored, it names the clocks the state file brought, and what the setting still freezes", () => {
    const { registry, demo, other } = buildWorld();
    expect(clockNote(registry.list(), undefined, true)).toBeUndefined();
    expect(clockNote(registry.list(), "2026-01-01T00:00:00Z", true)).toBe(
      "the state file's clocks run with the server's; LOYALTY_MOCK_FREEZE_CLOCK (2026-01-01T00:00:00.000Z) freezes only projects created or reset from now on",
    );
    demo.clock.set("2031-02-03T04:05:06.000Z");
    demo.clock.freeze();
    other.clock.advance(-90);
    expect(clockNote(registry.list(), undefined, true)).toBe(
      "clocks as the state file saved them: demo frozen at 2031-02-03T04:05:06.000Z, other running 90 s behind the server's clock",
    );
  });
});
