import { describe, expect, it } from "vitest";
import { blockKey } from "../../src/domain/auth/keys.js";
import type { Customer } from "../../src/domain/customers/customer.js";
import type { ProjectRegistry } from "../../src/domain/projects/registry.js";
import { faultInputSchema } from "../../src/http/control/fault-input.js";
import { markState, unchangedSince } from "../fuzz/state-mark.js";
import { buildWorld } from "../helpers/world.js";

/**
 * The fuzz tests' proof that a refused request changed nothing (test/fuzz/state-mark.ts) must see every kind of
 * change an export would show, stored records and records changed in place alike, and nothing else.
 */

function changedBy(change: (registry: ProjectRegistry) => void): boolean {
  const { registry } = buildWorld();
  const mark = markState(registry);
  change(registry);
  return !unchangedSince(registry, mark);
}

const firstCustomer = (registry: ProjectRegistry): Customer => {
  const [customer] = registry.get("demo").customers.list();
  if (!customer) throw new Error("the demo project has customers");
  return customer;
};

describe("a state mark", () => {
  it("sees no change where there is none, nor in a record stored again as an equal copy", () => {
    expect(changedBy(() => undefined)).toBe(false);
    expect(changedBy((r) => r.get("demo").customers.put({ ...firstCustomer(r) }))).toBe(false);
    expect(changedBy((r) => r.get("demo").journal.size)).toBe(false);
  });

  it("sees a record stored, changed or deleted, and a project removed", () => {
    expect(changedBy((r) => r.get("demo").customers.put({ ...firstCustomer(r), name: "Changed" }))).toBe(
      true,
    );
    expect(changedBy((r) => r.get("demo").customers.delete(firstCustomer(r).id))).toBe(true);
    expect(changedBy((r) => r.remove("other"))).toBe(true);
  });

  it("sees changes made in place: a key blocked, its tokens revoked, the clock moved, settings, fault rules", () => {
    expect(changedBy((r) => blockKey(r, r.get("demo"), "demo-app-id"))).toBe(true);
    expect(changedBy((r) => r.get("demo").clock.advance(1))).toBe(true);
    expect(changedBy((r) => Object.assign(r.get("demo"), { settings: { journal_size: 7 } }))).toBe(true);
    expect(
      changedBy((r) =>
        r
          .get("demo")
          .faults.add(faultInputSchema.parse({ path: "/v1/x", action: "error", status: 503 }), "now", 10),
      ),
    ).toBe(true);
  });

  it("copies what is not frozen all the way down, so a change inside it is seen", () => {
    const { registry } = buildWorld();
    const customers = registry.get("demo").customers;
    // An own `__proto__` key, as stored metadata can have: the copy must keep it as a key.
    const inner = { a: 1 };
    const metadata: Record<string, unknown> = { plan: "pro" };
    Object.defineProperty(metadata, "__proto__", { value: inner, enumerable: true, writable: true });
    customers.put(Object.freeze({ ...firstCustomer(registry), metadata }));
    const mark = markState(registry);
    expect(unchangedSince(registry, mark)).toBe(true);
    inner.a = 2;
    expect(unchangedSince(registry, mark)).toBe(false);
  });
});
