import type { Campaign } from "../../campaigns/campaign.js";
import type { Customer } from "../../customers/customer.js";
import type { Category } from "../../shared/schema-parts.js";
import type { Voucher } from "../../vouchers/voucher.js";
import { voucherResponse } from "../../vouchers/voucher-view.js";

/**
 * The small objects most notifications carry (`SimpleCustomer`, `SimpleCampaign`, `SimpleVoucher` in the vendor's
 * webhook schemas). Those schemas type most fields as non-null strings or objects, so a field the emulator holds
 * as null is left out rather than sent as null (the vendor's own examples send some nulls their schema refuses).
 * Records are never changed in place (stores put new objects), so the shapes share their parts instead of copying.
 */
type Json = Record<string, unknown>;

/** Own properties of `source` whose value is neither null nor undefined, in `source`'s order. */
export function present(source: Json): Json {
  const out: Json = {};
  for (const key in source) if (source[key] !== null && source[key] !== undefined) out[key] = source[key];
  return out;
}

export function simpleCustomer(customer: Customer): Json {
  return present({
    id: customer.id,
    name: customer.name,
    email: customer.email,
    source_id: customer.source_id,
    metadata: customer.metadata,
    object: "customer",
  });
}

/** The vendor's Category has no null `updated_at`; one written as null is left out. */
function categories(list: readonly Category[]): readonly Category[] {
  return list.some((category) => category.updated_at === null)
    ? list.map((category) => present(category) as Category)
    : list;
}

/**
 * The vendor's code_config always has all five fields: `pattern` holds `#` for each random character and no
 * prefix or postfix; `length` counts the `#`s.
 */
function codeConfig(config: Campaign["voucher"]["code_config"]) {
  const pattern = config.pattern ?? "#".repeat(config.length ?? 8);
  return {
    length: config.length ?? pattern.split("#").length - 1,
    charset: config.charset,
    prefix: config.prefix,
    postfix: config.postfix,
    pattern,
  };
}

// A campaign changes far less often than it is notified about: its shape is made once per stored version.
const campaignShapes = new WeakMap<Campaign, Json>();

export function simpleCampaign(campaign: Campaign): Json {
  let shape = campaignShapes.get(campaign);
  if (shape) return shape;
  const { voucher } = campaign;
  shape = present({
    id: campaign.id,
    name: campaign.name,
    campaign_type: campaign.campaign_type,
    type: campaign.type,
    is_referral_code: voucher.is_referral_code,
    voucher: present({
      type: voucher.type,
      loyalty_card: voucher.loyalty_card,
      // The emulator redeems nothing: no campaign-wide limit, nothing redeemed.
      redemption: { quantity: null, redeemed_quantity: 0 },
      code_config: codeConfig(voucher.code_config),
    }),
    auto_join: campaign.auto_join,
    join_once: campaign.join_once,
    active: campaign.active,
    category_id: campaign.category_id,
    category: campaign.category,
    categories: categories(campaign.categories),
    metadata: campaign.metadata,
    start_date: campaign.start_date,
    expiration_date: campaign.expiration_date,
    description: campaign.description,
    created_at: campaign.created_at,
    updated_at: campaign.updated_at,
    object: "campaign",
  });
  // Shared by every notification about the campaign: frozen, so no reader can change it for the others.
  campaignShapes.set(campaign, Object.freeze(shape));
  return shape;
}

export function simpleVoucher(voucher: Voucher): Json {
  return present({
    id: voucher.id,
    code: voucher.code,
    gift: voucher.gift,
    discount: voucher.discount,
    loyalty_card: voucher.loyalty_card && present(voucher.loyalty_card),
    type: voucher.type,
    campaign: voucher.campaign,
    campaign_id: voucher.campaign_id,
    is_referral_code: voucher.is_referral_code,
    holder_id: voucher.holder_id,
    category_id: voucher.category_id,
    categories: categories(voucher.categories),
    active: voucher.active,
    created_at: voucher.created_at,
    updated_at: voucher.updated_at,
    redemption: voucher.redemption,
    start_date: voucher.start_date,
    expiration_date: voucher.expiration_date,
    metadata: voucher.metadata,
    object: "voucher",
  });
}

/**
 * The whole voucher (the vendor's `Voucher`), as the API answers it (voucherResponse) but with the fields it holds
 * as null left out: the webhook schema types discount, gift, dates, validity and the redemption quantity as
 * non-null.
 */
export function fullVoucher(voucher: Voucher): Json {
  const shape = present(voucherResponse(voucher));
  if (voucher.loyalty_card) shape.loyalty_card = present(voucher.loyalty_card);
  // An unlimited card's redemption quantity is null in the API's answer; this schema wants an integer or nothing.
  if (voucher.redemption.quantity === null) shape.redemption = present(voucher.redemption);
  return shape;
}
