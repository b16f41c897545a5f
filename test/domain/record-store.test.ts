import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/errors.js";
import { RecordStore } from "../../src/domain/record-store.js";
import { errorBody } from "../../src/http/errors/http-errors.js";

interface Card {
  id: string;
  code: string | null;
}

class CardStore extends RecordStore<Card> {
  readonly findByCode = this.index((card) => card.code);

  constructor(cards: Card[]) {
    super("voucher", cards);
  }
}

describe("RecordStore", () => {
  it("get throws the service's 404 for an unknown id", () => {
    const store = new CardStore([]);
    expect(() => store.get("v_nope")).toThrow(ApiError);
    try {
      store.get("v_nope");
    } catch (error) {
      expect(errorBody(error as ApiError, "v-0")).toMatchObject({
        code: 404,
        key: "not_found",
        details: "Cannot find voucher with id v_nope",
        resource_type: "voucher",
      });
    }
  });

  it("indexes seeded records by their secondary key, skipping records without one", () => {
    const store = new CardStore([
      { id: "v_1", code: "A" },
      { id: "v_2", code: null },
    ]);
    expect(store.findByCode("A")?.id).toBe("v_1");
    expect(store.size).toBe(2);
  });

  it("keeps the secondary key in step when a record is replaced or deleted", () => {
    const store = new CardStore([{ id: "v_1", code: "A" }]);
    store.put({ id: "v_1", code: "B" });
    expect(store.findByCode("A")).toBeUndefined();
    expect(store.findByCode("B")?.id).toBe("v_1");
    store.put({ id: "v_2", code: "C" });
    store.delete("v_1");
    expect(store.findByCode("B")).toBeUndefined();
    expect(store.findByCode("C")?.id).toBe("v_2");
  });

  it("a key another record took since stays that record's when the first is deleted", () => {
    const store = new CardStore([{ id: "v_1", code: "A" }]);
    // Unique keys are the caller's to keep unique; the index follows the last record put.
    store.put({ id: "v_2", code: "A" });
    store.delete("v_1");
    expect(store.findByCode("A")?.id).toBe("v_2");
  });

  it("tells its watcher of each record put or deleted, and of no delete that found nothing", () => {
    const store = new CardStore([{ id: "v_1", code: "A" }]);
    const told: [string, boolean][] = [];
    store.watch((id, deleted) => told.push([id, deleted]));
    store.put({ id: "v_2", code: "B" });
    expect(store.delete("v_1")).toBe(true);
    expect(store.delete("v_nope")).toBe(false);
    expect(told).toEqual([
      ["v_2", false],
      ["v_1", true],
    ]);
  });

  it("keysOf answers the keys of the index asked for, and refuses a function that is not one", () => {
    class TwoKeys extends RecordStore<{ id: string; a: string; b: string }> {
      readonly byA = this.index((record) => record.a);
      readonly byB = this.index((record) => record.b);
    }
    const store = new TwoKeys("thing", [
      { id: "t_1", a: "a1", b: "b1" },
      { id: "t_2", a: "a2", b: "b1" },
    ]);
    const b = store.keysOf(store.byB);
    expect([b.size, b.has("b1"), b.has("a1")]).toEqual([1, true, false]);
    const a = store.keysOf(store.byA);
    expect([a.size, a.has("a1"), a.has("a2"), a.has("b1")]).toEqual([2, true, true, false]);
    expect(() => store.keysOf((key) => store.byA(key))).toThrow(new Error("not an index of this store"));
  });
});
