#!/usr/bin/env node
// Writes the voucher files of the embedded default dataset: fixtures/demo/vouchers.json and
// fixtures/other/vouchers.json. Every voucher of every campaign of those projects is in them: the generated bulk
// of unpublished loyalty cards and the hand-written vouchers below (published, inactive, not yet valid, expired,
// discount and referral codes). Ids and codes come from a seeded PRNG, so every run writes the same bytes.
//
// Usage: npm run fixtures:generate
//
// The other collections (customers.json, publications.json, ...) are hand-written. Publications and customers
// name the hand-written vouchers' ids, so change those together.
//
// Cards keep only what the service cannot derive: `campaign`, `assets`, `redemption`, `publish` and `object` are
// filled in by the loader, and fields at their schema defaults are left out.

import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const fixturesDir = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures");

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** The demo loyalty campaign's charset: no 0/O, 1/I, so codes read back without mistakes. */
const CARD_CHARSET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** mulberry32: a tiny 32-bit PRNG; good enough for fixture ids and stable across Node versions. */
function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` unpublished, active cards of a loyalty campaign. `taken` holds the ids and codes already in use (the
 * hand-written vouchers); new ones are added to it, so no id or code repeats.
 */
function generateCards({ seed, count, campaign, pattern, createdAt, taken }) {
  const random = mulberry32(seed);
  const pick = (chars) => chars[Math.floor(random() * chars.length)];
  const fresh = (make) => {
    for (;;) {
      const value = make();
      if (!taken.has(value)) {
        taken.add(value);
        return value;
      }
    }
  };
  const cards = [];
  for (let i = 0; i < count; i++) {
    const id = fresh(() => `v_${Array.from({ length: 24 }, () => pick(ALPHANUMERIC)).join("")}`);
    const code = fresh(() => pattern.replace(/#/g, () => pick(CARD_CHARSET)));
    cards.push(loyaltyCard(campaign, { id, code, created_at: createdAt }));
  }
  return cards;
}

/** A loyalty card of `campaign` (its category comes from the campaign at load), no points unless `fields` says otherwise. */
function loyaltyCard(campaign, fields) {
  const { id, code, loyalty_card = { points: 0, balance: 0 }, ...rest } = fields;
  return {
    id,
    code,
    campaign_id: campaign.id,
    type: "LOYALTY_CARD",
    loyalty_card,
    ...rest,
  };
}

const demoLoyalty = { id: "camp_demo_loyalty" };
const demoOnDemand = { id: "camp_demo_ondemand" };
const otherLoyalty = { id: "camp_other_loyalty" };

const CARDS_CREATED_AT = "2025-11-03T09:30:00.000Z";

/** Cards of camp_demo_loyalty that cannot be published: switched off, not valid yet, expired. */
const demoInactiveCards = [
  ["v_OOf7vz01sp6BjMKXAVSJ8FxP", "DEMO-NACT-2222"],
  ["v_TnE9pULh4LMR0TJCNBYA2pVv", "DEMO-NACT-2223"],
  ["v_js6OjUwu1LgaS0g6nGbIe97P", "DEMO-NACT-2224"],
  ["v_XzT6ful0EGs1PXxRnw6QwDI9", "DEMO-NACT-2225"],
  ["v_M9SvGiq6BlFBD7F6iLYxQQF3", "DEMO-NACT-2226"],
].map(([id, code]) =>
  loyaltyCard(demoLoyalty, {
    id,
    code,
    active: false,
    created_at: CARDS_CREATED_AT,
    updated_at: "2025-12-01T08:00:00.000Z",
  }),
);

const demoNotYetValidCards = [
  ["v_Tip7E39uS5PavecX0d48Lwjo", "DEMO-LATE-2727"],
  ["v_Esbtne2giN2cRMdXX8ZYRFpD", "DEMO-LATE-2728"],
].map(([id, code]) =>
  loyaltyCard(demoLoyalty, {
    id,
    code,
    start_date: "2727-01-01T00:00:00.000Z",
    created_at: CARDS_CREATED_AT,
  }),
);

const demoExpiredCards = [
  loyaltyCard(demoLoyalty, {
    id: "v_fqGSCFKw0WIGJiWTwoI4Wdr0",
    code: "DEMO-EXPD-2525",
    expiration_date: "2025-12-31T23:59:59.999Z",
    created_at: CARDS_CREATED_AT,
  }),
];

/** Cards of camp_demo_loyalty already held by customers; publications.json has a publication for each. */
const demoPublishedCards = [
  ["v_5AiF5A6ezrYeJTzejQcWIDr2", "DEMO-HELD-2345", "cust_demo_alice", 1450, 1250, "2026-01-20T10:15:00.000Z"],
  ["v_xkjU7yZVt0KV8qiLVfjAPjyY", "DEMO-HELD-3456", "cust_demo_bob", 300, 300, "2026-02-02T16:40:00.000Z"],
  ["v_cHtJ2iCwSvSkAmSKDJtoSIkG", "DEMO-HELD-4567", "cust_demo_carol", 5200, 4700, "2026-02-14T11:05:00.000Z"],
  ["v_u7s68vOn0U6myGz6hTjG64T4", "DEMO-HELD-5678", "cust_demo_dave", 0, 0, "2026-03-09T08:20:00.000Z"],
].map(([id, code, holder, points, balance, publishedAt]) =>
  loyaltyCard(demoLoyalty, {
    id,
    code,
    loyalty_card: { points, balance },
    created_at: CARDS_CREATED_AT,
    updated_at: publishedAt,
    holder_id: holder,
  }),
);

/** camp_demo_ondemand holds two cards; once they are gone the campaign makes new ones. */
const demoOnDemandCards = [
  ["v_gOKXDM2gqzToHVhEwdZsscCZ", "OD-4820193756"],
  ["v_XxmYS3IDXHGvLnk1divlYfGO", "OD-7350918264"],
].map(([id, code]) => loyaltyCard(demoOnDemand, { id, code, created_at: "2025-11-04T09:00:00.000Z" }));

const demoDiscountVouchers = [
  ["v_RboYdTQbl6R9Batsvq2wTEy6", "SAVE10-K7QM"],
  ["v_sShbSd9RFAlxa4yEC9JBjHNP", "SAVE10-R3XH"],
  ["v_CqzOYpVvzai93iLqBZ7BeUnZ", "SAVE10-W9TD"],
].map(([id, code]) => ({
  id,
  code,
  campaign_id: "camp_demo_discounts",
  type: "DISCOUNT_VOUCHER",
  discount: { type: "PERCENT", percent_off: 10 },
  created_at: "2025-11-05T10:00:00.000Z",
}));

const demoReferralCodes = [
  {
    id: "v_kOGTdcebVI7WeRzeBvVnXIvr",
    code: "REF-ALICE",
    campaign_id: "camp_demo_referral",
    type: "DISCOUNT_VOUCHER",
    discount: { type: "PERCENT", percent_off: 15 },
    is_referral_code: true,
    created_at: "2026-01-20T10:20:00.000Z",
    updated_at: "2026-01-20T10:20:00.000Z",
    holder_id: "cust_demo_alice",
  },
];

function build() {
  const demoHandWritten = [
    ...demoInactiveCards,
    ...demoNotYetValidCards,
    ...demoExpiredCards,
    ...demoPublishedCards,
    ...demoOnDemandCards,
    ...demoDiscountVouchers,
    ...demoReferralCodes,
  ];
  const demoTaken = new Set(demoHandWritten.flatMap((voucher) => [voucher.id, voucher.code]));
  // The generated cards come first: the first card of the file is the one a publication without a code gets.
  const demoGenerated = generateCards({
    seed: 20251103,
    count: 1000,
    campaign: demoLoyalty,
    pattern: "DEMO-####-####",
    createdAt: CARDS_CREATED_AT,
    taken: demoTaken,
  });
  const otherCards = generateCards({
    seed: 20251110,
    count: 10,
    campaign: otherLoyalty,
    pattern: "OTHER-####-####",
    createdAt: "2025-11-10T09:30:00.000Z",
    taken: new Set(demoTaken),
  });
  return { demo: [...demoGenerated, ...demoHandWritten], other: otherCards, demoGenerated };
}

function write(project, vouchers) {
  writeFileSync(resolve(fixturesDir, project, "vouchers.json"), `${JSON.stringify(vouchers, null, 2)}\n`);
}

const { demo, other, demoGenerated } = build();
write("demo", demo);
write("other", other);

const codes = (cards) => cards.map((card) => card.code).join(", ");
console.log(
  `fixtures/demo/vouchers.json: ${demo.length} vouchers; fixtures/other/vouchers.json: ${other.length}`,
);
console.log(`first unpublished cards (camp_demo_loyalty): ${codes(demoGenerated.slice(0, 3))}`);
console.log(`inactive: ${codes(demoInactiveCards)}`);
console.log(`not valid before 2727-01-01: ${codes(demoNotYetValidCards)}`);
console.log(`expired on 2025-12-31: ${codes(demoExpiredCards)}`);
for (const card of demoPublishedCards) console.log(`published: ${card.code} held by ${card.holder_id}`);
console.log(`other project's first card (camp_other_loyalty): ${other[0].code}`);
