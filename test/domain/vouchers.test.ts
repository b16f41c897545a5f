import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { campaignSchema } from "../../src/domain/campaigns/campaign.js";
import { codeSpace, generateCode } from "../../src/domain/vouchers/code-generator.js";
import { completeVoucher, type Voucher, type VoucherInput } from "../../src/domain/vouchers/voucher.js";
import { VoucherStore } from "../../src/domain/vouchers/voucher-store.js";
import { randomIds } from "../../src/platform/ids.js";

/**
 * The rules of src/domain/vouchers/ that the HTTP tests reach only by chance, written for what a mutation run
 * (docs/internals/testing.md, "Mutation testing") found no test to fail on: the exhaustive search of a crowded
 * code space, the parts of a card filled in one at a time, and where a card sits after an update.
 */

const campaign = campaignSchema.parse({
  id: "camp_x",
  name: "X",
  campaign_type: "LOYALTY_PROGRAM",
  voucher: { type: "LOYALTY_CARD" },
  created_at: "2026-01-01T00:00:00.000Z",
});
const other = campaignSchema.parse({ ...campaign, id: "camp_y", name: "Y" });
const campaigns = (id: string) => (id === "camp_y" ? other : campaign);

const config = (extra: object) =>
  campaignSchema.parse({ ...campaign, voucher: { type: "LOYALTY_CARD", code_config: extra } }).voucher
    .code_config;

/** Random draws that always give the first code of the space, so the search has to go past them. */
const stuck = {
  ...randomIds,
  randomString: (length: number, charset = "A") => charset[0]?.repeat(length) ?? "",
};

/** `taken` that answers from a list and counts how often it was asked. */
function takenExcept(free: string | undefined) {
  const asked = { count: 0 };
  return {
    asked,
    taken: (code: string) => {
      asked.count++;
      return code !== free;
    },
  };
}

describe("code generation when random draws keep landing on taken codes", () => {
  it("counts only the pattern's # as random slots", () => {
    expect(codeSpace(config({ pattern: "#-#", charset: "AB" }))).toBe(4);
    expect(codeSpace(config({ length: 3, charset: "AB" }))).toBe(8);
  });

  it("after 64 draws, a space of up to 100,000 codes is searched in order for the first free one", () => {
    const { asked, taken } = takenExcept("B-A");
    expect(generateCode(config({ pattern: "#-#", charset: "AB" }), taken, stuck)).toBe("B-A");
    // A-A (the draws and the search's first), A-B, then B-A.
    expect(asked.count).toBe(64 + 3);
  });

  it("a full small space is undefined once every code was tried", () => {
    const { asked, taken } = takenExcept(undefined);
    expect(generateCode(config({ pattern: "#-#", charset: "AB" }), taken, stuck)).toBeUndefined();
    expect(asked.count).toBe(64 + 4);
  });

  it("a space of exactly 100,000 codes is still searched", () => {
    const { taken } = takenExcept("99999");
    expect(generateCode(config({ length: 5, charset: "0123456789" }), taken, stuck)).toBe("99999");
  });

  it("a larger space is given up on after the 64 draws, without a search", () => {
    const { asked, taken } = takenExcept("999999");
    expect(generateCode(config({ length: 6, charset: "0123456789" }), taken, stuck)).toBeUndefined();
    expect(asked.count).toBe(64);
  });
});

/** A card as a fixture may give it: none of the parts that follow from the rest. */
function leanCard(id: string, extra: Partial<VoucherInput> = {}): VoucherInput {
  return {
    id,
    code: id.toUpperCase(),
    campaign_id: "camp_x",
    type: "LOYALTY_CARD",
    discount: null,
    gift: null,
    loyalty_card: { points: 0, balance: 0 },
    start_date: null,
    expiration_date: null,
    validity_timeframe: null,
    validity_day_of_week: null,
    active: true,
    additional_info: null,
    metadata: {},
    is_referral_code: false,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: null,
    holder_id: null,
    object: "voucher",
    ...extra,
  } as VoucherInput;
}

describe("completeVoucher", () => {
  const DERIVED = [
    "campaign",
    "category",
    "category_id",
    "categories",
    "assets",
    "redemption",
    "publish",
  ] as const;
  // Made inside each test: a mutation run switches its mutant on when the tests start, after collection.
  const complete = () => completeVoucher(leanCard("lc-0001"), campaign, 0);

  it("gives a card's assets ids that follow from its code alone", () => {
    expect(complete().assets).toEqual({
      qr: {
        id: "U2FsdGVkX17-KesjPXNXH6QvMwT4khUfUap3JDbuj_",
        url: "https://assets.loyalty-mock.invalid/api/v1/assets/qr/U2FsdGVkX17-KesjPXNXH6QvMwT4khUfUap3JDbuj_",
      },
      barcode: {
        id: "U2FsdGVkX1CbTfs3t53ujpc_u8fYJaK99EPFuU4ZDn",
        url: "https://assets.loyalty-mock.invalid/api/v1/assets/barcode/U2FsdGVkX1CbTfs3t53ujpc_u8fYJaK99EPFuU4ZDn",
      },
    });
  });

  it.each(DERIVED)("fills in %s when it is the only part missing", (part) => {
    const full = complete();
    const record = { ...full } as Record<string, unknown>;
    delete record[part];
    const completed = completeVoucher(record as VoucherInput, campaign, 0);
    expect(completed).not.toBe(record);
    expect(completed).toEqual(full);
  });

  it("returns a card that has every part as it is", () => {
    const full = complete();
    expect(completeVoucher(full, campaign, 0)).toBe(full);
  });
});

/** The ids of a campaign's open cards, in order: every card firstOpenCard looks at when it accepts none. */
function openIds(store: VoucherStore, campaignId = "camp_x"): string[] {
  const seen: string[] = [];
  store.firstOpenCard(campaignId, (open) => {
    seen.push(open.id);
    return false;
  });
  return seen;
}

const storeOf = (...cards: VoucherInput[]) => new VoucherStore("voucher", cards, campaigns);
const stored = (store: VoucherStore, id: string): Voucher => store.get(id);

describe("VoucherStore: where a card sits after an update", () => {
  it("an open card updated in place keeps its place in the campaign's order", () => {
    const store = storeOf(leanCard("v_a"), leanCard("v_b"), leanCard("v_c"));
    store.put({ ...stored(store, "v_a"), metadata: { touched: true } });
    expect(openIds(store)).toEqual(["v_a", "v_b", "v_c"]);
  });

  it("a card switched off leaves the open cards; switched on again it comes last", () => {
    const store = storeOf(leanCard("v_a"), leanCard("v_b"), leanCard("v_c"));
    store.put({ ...stored(store, "v_a"), active: false });
    expect(openIds(store)).toEqual(["v_b", "v_c"]);
    store.put({ ...stored(store, "v_a"), active: true });
    expect(openIds(store)).toEqual(["v_b", "v_c", "v_a"]);
  });

  it("an open card moved to another campaign is open there, not here", () => {
    const store = storeOf(leanCard("v_a"), leanCard("v_b"));
    store.put({ ...stored(store, "v_a"), campaign_id: "camp_y" });
    expect(openIds(store, "camp_x")).toEqual(["v_b"]);
    expect(openIds(store, "camp_y")).toEqual(["v_a"]);
  });

  it("a held card updated in place keeps its place among its holder's cards", () => {
    const store = storeOf(leanCard("v_a", { holder_id: "cust_1" }), leanCard("v_b", { holder_id: "cust_1" }));
    store.put({ ...stored(store, "v_a"), metadata: { touched: true } });
    expect(store.heldBy("cust_1").map((card) => card.id)).toEqual(["v_a", "v_b"]);
  });

  it("a held card passed to another customer is held by them only", () => {
    const store = storeOf(leanCard("v_a", { holder_id: "cust_1" }), leanCard("v_b"));
    store.put({ ...stored(store, "v_a"), holder_id: "cust_2" });
    expect(store.heldBy("cust_1")).toEqual([]);
    expect(store.heldBy("cust_2").map((card) => card.id)).toEqual(["v_a"]);
    expect(openIds(store)).toEqual(["v_b"]);
  });

  it("a held card let go is no longer its holder's, and not open (it was published)", () => {
    const store = storeOf(leanCard("v_a", { holder_id: "cust_1" }));
    store.put({ ...stored(store, "v_a"), holder_id: null, active: false });
    expect(store.heldBy("cust_1")).toEqual([]);
    expect(openIds(store)).toEqual([]);
  });
  it("a card moved away and back, or deleted and made again, comes last, and only once", () => {
    const store = storeOf(leanCard("v_a"), leanCard("v_b"), leanCard("v_c"));
    store.put({ ...stored(store, "v_a"), campaign_id: "camp_y" });
    store.put({ ...stored(store, "v_a"), campaign_id: "camp_x" });
    expect(openIds(store)).toEqual(["v_b", "v_c", "v_a"]);
    expect(openIds(store, "camp_y")).toEqual([]);
    store.delete("v_b");
    expect(openIds(store)).toEqual(["v_c", "v_a"]);
    store.put(leanCard("v_b"));
    expect(openIds(store)).toEqual(["v_c", "v_a", "v_b"]);
  });

  it("a card handed out, let go and put back unpublished comes last, after the head moved past it", () => {
    const store = storeOf(leanCard("v_a"), leanCard("v_b"), leanCard("v_c"));
    const first = store.firstOpenCard("camp_x", () => true);
    store.put({
      ...(first as Voucher),
      holder_id: "cust_1",
      publish: { ...(first as Voucher).publish, count: 1 },
    });
    expect(openIds(store)).toEqual(["v_b", "v_c"]);
    store.put({ ...leanCard("v_a"), holder_id: null });
    expect(openIds(store)).toEqual(["v_b", "v_c", "v_a"]);
    expect(store.firstOpenCard("camp_x", () => true)?.id).toBe("v_b");
  });

  it("keeps the open cards in the order an insertion-ordered set of ids would, under any writes", () => {
    // The reference: a Set per campaign, deleted from when a card leaves and added to when it comes.
    const write = fc.tuple(
      fc.constantFrom("hold", "release", "off", "on", "move", "delete", "take", "touch"),
      fc.integer({ min: 0, max: 59 }),
    );
    fc.assert(
      fc.property(fc.array(write, { maxLength: 300 }), (writes) => {
        const cards = Array.from({ length: 40 }, (_, i) =>
          leanCard(`v_${i}`, { campaign_id: i % 3 ? "camp_x" : "camp_y" }),
        );
        const store = storeOf(...cards);
        const model = new Map<string, VoucherInput>(cards.map((card) => [card.id, card]));
        const open = (card: VoucherInput) => card.active && !card.holder_id && !card.publish;
        const order = new Map([
          ["camp_x", new Set<string>()],
          ["camp_y", new Set<string>()],
        ]);
        for (const card of cards) if (open(card)) order.get(card.campaign_id)?.add(card.id);
        const apply = (id: string, next: VoucherInput | undefined) => {
          const before = model.get(id);
          const stays =
            before && next && open(before) && open(next) && before.campaign_id === next.campaign_id;
          if (before && !stays) order.get(before.campaign_id)?.delete(id);
          if (next && !stays && open(next)) order.get(next.campaign_id)?.add(id);
          if (next) {
            model.set(id, next);
            store.put(next);
          } else {
            model.delete(id);
            store.delete(id);
          }
        };
        for (const [kind, n] of writes) {
          const id = kind === "take" ? (openIds(store)[0] ?? "v_0") : `v_${n}`;
          const card = model.get(id) ?? leanCard(id);
          const next: Record<string, VoucherInput | undefined> = {
            hold: { ...card, holder_id: "cust_1" },
            take: { ...card, holder_id: "cust_2" },
            release: { ...card, holder_id: null },
            off: { ...card, active: false },
            on: { ...card, active: true },
            move: { ...card, campaign_id: card.campaign_id === "camp_x" ? "camp_y" : "camp_x" },
            touch: { ...card, metadata: { n } },
            delete: undefined,
          };
          apply(id, next[kind]);
        }
        expect(openIds(store, "camp_x")).toEqual([...(order.get("camp_x") ?? [])]);
        expect(openIds(store, "camp_y")).toEqual([...(order.get("camp_y") ?? [])]);
      }),
      { numRuns: 200 },
    );
  });
});
