import { describe, expect, it } from "vitest";
import { faultRefusals } from "../../src/domain/projects/project.js";
import { type FaultAction, FaultRules } from "../../src/emulation/faults/fault-rules.js";
import { compilePathPattern, methodMatches } from "../../src/emulation/path-pattern.js";
import { faultInputSchema } from "../../src/http/control/fault-input.js";

/**
 * Fault rules are indexed by method and exact path, with the pattern rules apart (emulation/faults/rule-index.ts).
 * Matching must stay what a scan of every rule in order gave: the first added of the matching rules wins, a rule
 * with `times` retires after its last match. Checked against that scan, written out here, on generated rules.
 */

const LIMIT = 10_000;

function spec(method: string, path: string, times?: number) {
  return faultInputSchema.parse({ method, path, action: "error" as FaultAction, status: 503, times });
}

describe("fault rules: the index", () => {
  it("the first added of the matching rules wins, whichever kind each is", () => {
    const rules = new FaultRules(faultRefusals("demo"));
    const anyPattern = rules.add(spec("*", "/v1/**", 1), "t", LIMIT);
    const exact = rules.add(spec("GET", "/v1/locations/x"), "t", LIMIT);
    const anyMethod = rules.add(spec("*", "/v1/locations/x"), "t", LIMIT);
    const pattern = rules.add(spec("get", "/v1/locations/{id}"), "t", LIMIT);
    expect(rules.take("GET", "/v1/locations/x")?.id).toBe(anyPattern.id);
    expect(rules.take("get", "/v1/locations/x")?.id).toBe(exact.id);
    expect(rules.take("POST", "/v1/locations/x")?.id).toBe(anyMethod.id);
    rules.remove(exact.id);
    expect(rules.take("GET", "/v1/locations/x")?.id).toBe(anyMethod.id);
    rules.remove(anyMethod.id);
    expect(rules.take("GET", "/v1/locations/x")?.id).toBe(pattern.id);
    expect(rules.take("POST", "/v1/locations/x")).toBeUndefined();
    expect(rules.take("GET", "/v1/locations/x/y")).toBeUndefined();
    expect(rules.list().map((fault) => fault.id)).toEqual([pattern.id]);
    expect(rules.clear()).toBe(1);
    expect(rules.take("GET", "/v1/locations/x")).toBeUndefined();
  });

  it("matches exactly as a scan of every rule in order, on generated rules and requests", () => {
    let seed = 18;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      // The high bits: the low bits of this generator repeat with a short period.
      return (seed >>> 16) % n;
    };
    const pick = <T>(values: readonly T[]) => values[next(values.length)] as T;
    const methods = ["GET", "POST", "DELETE", "*"] as const;
    const paths = [
      "/v1/events",
      "/v1/locations/a",
      "/v1/locations/b",
      "/v2/x/y",
      "/v1/locations/{id}",
      "/v2/**",
      "/v1/*s",
    ];
    const requests = [
      "/v1/events",
      "/v1/locations/a",
      "/v1/locations/b",
      "/v2/x/y",
      "/v2/z",
      "/v1/locations/a/b",
    ];

    const rules = new FaultRules(faultRefusals("demo"));
    // The reference: every rule in order, scanned.
    const reference: {
      id: string;
      method: string;
      matches: (path: string) => boolean;
      remaining: number | null;
    }[] = [];
    for (let round = 0; round < 2000; round++) {
      const action = next(4);
      if (action === 0 || reference.length === 0) {
        const times = next(3) === 0 ? 1 + next(3) : undefined;
        const fault = rules.add(spec(pick(methods), pick(paths), times), "t", LIMIT);
        reference.push({
          id: fault.id,
          method: fault.method,
          matches: compilePathPattern(fault.path),
          remaining: fault.remaining,
        });
      } else if (action === 1 && next(4) === 0) {
        const [removed] = reference.splice(next(reference.length), 1);
        if (removed) expect(rules.remove(removed.id).id).toBe(removed.id);
      } else {
        const method = pick(["GET", "POST", "DELETE", "PATCH"]);
        const path = pick(requests);
        const index = reference.findIndex((rule) => methodMatches(rule.method, method) && rule.matches(path));
        const expected = reference[index];
        if (expected?.remaining != null && --expected.remaining === 0) reference.splice(index, 1);
        expect(rules.take(method, path)?.id, `${method} ${path}`).toBe(expected?.id);
      }
    }
    expect(rules.list().map((fault) => fault.id)).toEqual(reference.map((rule) => rule.id));
  });
});
