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
});
