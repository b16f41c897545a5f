import { describe, expect, it } from "vitest";
import { faultRefusals } from "../../src/domain/projects/project.js";
import { FaultRules } from "../../src/emulation/faults/fault-rules.js";
import { faultInputSchema } from "../../src/http/control/fault-input.js";

describe("FaultRules", () => {
  it("the first matching rule is taken and retires after its last match", () => {
    const rules = new FaultRules(faultRefusals("demo"));
    const once = rules.add(faultInputSchema.parse({ path: "/v1/**", action: "drop", times: 1 }), "t", 10);
    const always = rules.add(
      faultInputSchema.parse({ method: "get", path: "/v1/{x}", action: "delay", latency_ms: 5 }),
      "t",
      10,
    );
    expect(rules.take("POST", "/v2/x")).toBeUndefined();
    expect(rules.take("GET", "/v1/x")?.id).toBe(once.id);
    expect(rules.take("GET", "/v1/x")?.id).toBe(always.id);
    expect(rules.take("POST", "/v1/x")).toBeUndefined();
    expect(rules.list().map((fault) => [fault.id, fault.matched])).toEqual([[always.id, 1]]);
  });
});
