import type { Voucher } from "./voucher.js";

/**
 * The voucher as the service returns it: the spec's fields in the spec's order, and nothing the emulator keeps for
 * itself. A card's `loyalty_card` keeps only the counters it has.
 */
export function voucherResponse(voucher: Voucher) {
  return {
    id: voucher.id,
    code: voucher.code,
    campaign: voucher.campaign,
    campaign_id: voucher.campaign_id,
    category: voucher.category,
    category_id: voucher.category_id,
    categories: voucher.categories,
    type: voucher.type,
    discount: voucher.discount,
    gift: voucher.gift,
    loyalty_card: voucher.loyalty_card,
    start_date: voucher.start_date,
    expiration_date: voucher.expiration_date,
    validity_timeframe: voucher.validity_timeframe,
    validity_day_of_week: voucher.validity_day_of_week,
    active: voucher.active,
    additional_info: voucher.additional_info,
    metadata: voucher.metadata,
    assets: voucher.assets,
    is_referral_code: voucher.is_referral_code,
    created_at: voucher.created_at,
    updated_at: voucher.updated_at,
    holder_id: voucher.holder_id ?? null,
    redemption: voucher.redemption,
    publish: voucher.publish,
    object: voucher.object,
  };
}
