import { runToEnd } from "../../platform/steps.js";
import type { Campaign } from "../campaigns/campaign.js";
import { type KeySet, RecordStore } from "../record-store.js";
import { IdQueue } from "./id-queue.js";
import { completeVoucher, publishCount, type Voucher, type VoucherInput } from "./voucher.js";

/**
 * Vouchers of a project, by id and by code, plus the two lookups card assignment needs to stay fast at any size:
 * each campaign's cards still open for publication (in a stable order: the order they were stored in), and the
 * cards each customer holds. Both are kept in step by `put`, so they never drift from the records.
 *
 * Records are kept as they were given: a fixture card without its derived parts (campaign name, categories,
 * assets, redemption and publish summaries) stays that small, and every read completes it from its campaign. A
 * million-card campaign then costs the cards, not five derived objects per card. Records are never changed in place:
 * writes put a new object.
 */
export class VoucherStore extends RecordStore<VoucherInput> {
  readonly #byCode = this.index((voucher) => voucher.code);
  readonly #campaigns: CampaignLookup;
  /**
   * campaign id -> its active, unpublished cards, in the order they were stored. A queue asks the store whether a
   * card is still one of them, so a card leaves its queue by being put or deleted here, and `put` only queues one
   * that comes to be open (see IdQueue).
   */
  readonly #open = new Map<string, IdQueue<VoucherInput>>();
  /** customer id -> ids of the vouchers they hold. */
  readonly #held = new Map<string, Set<string>>();

  /** While seeding: the campaign of the last open card queued, and its queue (see `seeded`). */
  #seeding: { campaign: string; queue: IdQueue<VoucherInput> } | undefined;

  /** `vouchers`: seeded at once (a project's build seeds a store made with none, a step at a time: `seed`). */
  constructor(resourceType: string, vouchers: readonly VoucherInput[], campaigns: CampaignLookup) {
    super(resourceType);
    this.#campaigns = campaigns;
    runToEnd(this.seed(vouchers));
  }

  /**
   * Each id comes once, and cards of a campaign mostly follow one another: an open card is queued without a
   * membership lookup, and its campaign's queue looked up only when the campaign changes (two million map lookups
   * less for a million-card campaign, at every start and restart).
   */
  protected override seeded(voucher: VoucherInput): void {
    if (voucher.holder_id || !isOpen(voucher)) {
      this.#track(voucher);
      return;
    }
    let seeding = this.#seeding;
    if (seeding === undefined || voucher.campaign_id !== seeding.campaign) {
      seeding = { campaign: voucher.campaign_id, queue: this.#queueOf(voucher.campaign_id) };
      this.#seeding = seeding;
    }
    seeding.queue.seed(voucher.id);
  }

  override get(id: string): Voucher {
    return this.#complete(super.get(id));
  }

  override find(id: string): Voucher | undefined {
    const voucher = super.find(id);
    return voucher && this.#complete(voucher);
  }

  /** The codes of the cards, as a set. */
  get codes(): KeySet {
    return this.keysOf(this.#byCode);
  }

  findByCode(code: string): Voucher | undefined {
    const voucher = this.#byCode(code);
    return voucher && this.#complete(voucher);
  }

  override list(): Voucher[] {
    return [...this.values()];
  }

  override *values(): IterableIterator<Voucher> {
    for (const voucher of super.values()) yield this.#complete(voucher);
  }

  /** A card as stored, completed as every read completes it: what a list shows of the few it pages. */
  completed(voucher: VoucherInput): Voucher {
    return this.#complete(voucher);
  }

  /** The records as stored, derived parts left out where they were left out: what a state export writes. */
  records(): IterableIterator<VoucherInput> {
    return super.values();
  }

  override put(voucher: VoucherInput): Voucher {
    const previous = super.find(voucher.id);
    // An update that leaves a card where it was (open, or held by the same customer) keeps its place in order.
    const unmoved = previous !== undefined && samePlace(previous, voucher);
    if (previous && !unmoved) this.#untrack(previous);
    super.put(voucher);
    if (!unmoved) this.#track(voucher);
    return this.#complete(voucher);
  }

  override delete(id: string): boolean {
    const previous = super.find(id);
    if (previous) this.#untrack(previous);
    return super.delete(id);
  }

  /**
   * The first of the campaign's open cards, in their stable order, that `usable` accepts. Cards are looked at as
   * stored (completing one builds its derived parts), so skipping a card costs a lookup; only the one returned is
   * completed. The cost is the cards skipped (ones outside their validity window), never the size of the campaign.
   */
  firstOpenCard(campaignId: string, usable: (card: VoucherInput) => boolean): Voucher | undefined {
    for (const card of this.#open.get(campaignId) ?? []) if (usable(card)) return this.#complete(card);
    return undefined;
  }

  /**
   * Every card someone holds, as stored, each customer's in the store's order while the store is as it was built:
   * what the project's figures start from, without a pass over the cards nobody holds.
   */
  *heldRecords(): IterableIterator<VoucherInput> {
    for (const ids of this.#held.values())
      for (const id of ids) {
        const card = this.stored(id);
        if (card) yield card;
      }
  }

  /** The vouchers a customer holds, optionally only those of one campaign. */
  heldBy(customerId: string, campaignId?: string): Voucher[] {
    const held: Voucher[] = [];
    for (const id of this.#held.get(customerId) ?? []) {
      const voucher = this.find(id);
      if (voucher && (campaignId === undefined || voucher.campaign_id === campaignId)) held.push(voucher);
    }
    return held;
  }

  #complete(voucher: VoucherInput): Voucher {
    return completeVoucher(voucher, this.#campaigns(voucher.campaign_id), publishCount(voucher));
  }

  #track(voucher: VoucherInput): void {
    if (voucher.holder_id) addTo(this.#held, voucher.holder_id, voucher.id, newSet);
    else if (isOpen(voucher)) this.#queueOf(voucher.campaign_id).add(voucher.id);
  }

  /** Takes a card out of its customer's list; a card leaves its open queue by itself (see #open). */
  #untrack(voucher: VoucherInput): void {
    if (voucher.holder_id) this.#held.get(voucher.holder_id)?.delete(voucher.id);
  }

  #queueOf(campaignId: string): IdQueue<VoucherInput> {
    let queue = this.#open.get(campaignId);
    if (!queue) {
      queue = new IdQueue((id) => {
        const card = this.stored(id);
        return card && isOpen(card) && card.campaign_id === campaignId ? card : undefined;
      });
      this.#open.set(campaignId, queue);
    }
    return queue;
  }
}

export type CampaignLookup = (campaignId: string) => Campaign;

/** Open for publication: switched on and never handed out. Validity windows are the caller's to check. */
function isOpen(voucher: VoucherInput): boolean {
  return voucher.active && !voucher.holder_id && publishCount(voucher) === 0;
}

/** Whether two versions of a card sit in the same list: held by the same customer, or open in the same campaign. */
function samePlace(a: VoucherInput, b: VoucherInput): boolean {
  if (a.holder_id || b.holder_id) return a.holder_id === b.holder_id;
  const open = isOpen(a);
  return open === isOpen(b) && (!open || a.campaign_id === b.campaign_id);
}

const newSet = () => new Set<string>();

function addTo<C extends { add(id: string): unknown }>(
  map: Map<string, C>,
  key: string,
  id: string,
  create: () => C,
): void {
  let ids = map.get(key);
  if (!ids) {
    ids = create();
    map.set(key, ids);
  }
  ids.add(id);
}
