import { eachOfArray, type Steps } from "../../platform/steps.js";
import type { CampaignStore } from "../campaigns/campaign.js";
import { collection } from "../collection.js";
import type { Publication } from "../publications/publication.js";
import { seeded } from "../record-store.js";
import { publishCount, publishSummary, type VoucherInput, voucherSchema } from "./voucher.js";
import { VoucherStore } from "./voucher-store.js";

/** How many publications name each card, counted a step at a time. */
function* countPublications(publications: readonly Publication[]): Steps<Map<string, number>> {
  const published = new Map<string, number>();
  yield* eachOfArray(publications, (publication) => {
    published.set(publication.voucher_id, (published.get(publication.voucher_id) ?? 0) + 1);
  });
  return published;
}

/**
 * A card's publication count comes from the publications that name it, when the fixture lists any; a card with
 * a holder and none listed counts one (see publishCount). Only cards whose count differs get a `publish`.
 */
function withPublished(voucher: VoucherInput, published: ReadonlyMap<string, number>): VoucherInput {
  const count = published.get(voucher.id);
  if (count === undefined || voucher.publish || count === publishCount(voucher)) return voucher;
  return { ...voucher, publish: publishSummary(voucher.code, count) };
}

/**
 * A card by its code, or a customer's card: what the dashboard asks for each member it shows, which must not cost
 * a pass over a million-card project. A customer holding several cards is scanned for, as the index keeps the
 * order the customer got them rather than the order of the store.
 */
function narrowVouchers(store: VoucherStore, filters: ReadonlyMap<string, string>): object[] | undefined {
  const code = filters.get("code");
  if (code !== undefined) {
    const card = store.findByCode(code);
    return card ? [card] : [];
  }
  const holder = filters.get("holder_id");
  if (holder === undefined || holder === "null") return undefined;
  const held = store.heldBy(holder);
  return held.length <= 1 ? held : undefined;
}

/** A project's vouchers (loyalty cards among them), by id and by code. */
export const voucherCollection = collection({
  name: "vouchers",
  schema: voucherSchema,
  resourceType: "voucher",
  label: "voucher",
  key: "id",
  unique: ["code"],
  references: [
    { field: "campaign_id", to: "campaigns" },
    { field: "holder_id", to: "customers" },
  ],
  // A card reads its campaign when it is read, so the campaigns' store only has to exist by then.
  *store(vouchers, built) {
    const published = yield* countPublications(built.records("publications") as Publication[]);
    const store = new VoucherStore(built.resourceType, [], (id) =>
      (built.store("campaigns") as CampaignStore).get(id),
    );
    return yield* seeded(store, vouchers, (voucher) => withPublished(voucher, published));
  },
  keySets: (store) => ({ id: store, code: store.codes }),
  view: {
    component: "Voucher",
    filters: ["code", "campaign_id", "holder_id", "type", "active"],
    alternateKey: (store, code) => store.findByCode(code),
    narrow: narrowVouchers,
  },
});
