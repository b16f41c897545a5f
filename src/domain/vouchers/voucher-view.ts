import { hash } from "node:crypto";
import type { Campaign } from "../campaigns/campaign.js";
import type { Voucher, VoucherInput } from "./voucher.js";

/** Where the emulator says a voucher's QR and barcode images live; the real service links to its asset host. */
export const DEFAULT_ASSETS_BASE_URL = "https://assets.loyalty-mock.invalid";

/**
 * The service identifies asset images by an encrypted form of the code (ids begin `U2FsdGVkX1`, the salted-cipher
 * header). The emulator keeps the look and makes the id a stable digest, so the same code always has the same id.
 */
function assetId(code: string, kind: "qr" | "barcode"): string {
  // One-shot hashing: the same digest as createHash().update().digest(), at a fraction of the cost per card read.
  return `U2FsdGVkX1${hash("sha256", `${kind}:${code}`, "base64url").slice(0, 32)}`;
}

export function voucherAssets(code: string, baseUrl: string = DEFAULT_ASSETS_BASE_URL): Voucher["assets"] {
  const qr = assetId(code, "qr");
  const barcode = assetId(code, "barcode");
  return {
    qr: { id: qr, url: `${baseUrl}/api/v1/assets/qr/${qr}` },
    barcode: { id: barcode, url: `${baseUrl}/api/v1/assets/barcode/${barcode}` },
  };
}

/**
 * Fills in the parts of a voucher that follow from the rest, keeping any the record spells out. A record that has
 * them all is returned as it is.
 */
export function completeVoucher(input: VoucherInput, campaign: Campaign, publishCount: number): Voucher {
  if (isComplete(input)) return input;
  const code = encodeURIComponent(input.code);
  return {
    ...input,
    campaign: input.campaign ?? campaign.name,
    category: input.category !== undefined ? input.category : campaign.category,
    category_id: input.category_id !== undefined ? input.category_id : campaign.category_id,
    categories: input.categories ?? campaign.categories,
    assets: input.assets ?? voucherAssets(input.code),
    redemption: input.redemption ?? {
      quantity: null,
      redeemed_quantity: 0,
      redeemed_points: 0,
      object: "list",
      url: `/v1/vouchers/${code}/redemptions?page=1&limit=10`,
    },
    publish: input.publish ?? publishSummary(input.code, publishCount),
  };
}

export function publishSummary(code: string, count: number): Voucher["publish"] {
  return {
    object: "list",
    count,
    url: `/v1/vouchers/${encodeURIComponent(code)}/publications?page=1&limit=10`,
  };
}

function isComplete(input: VoucherInput): input is Voucher {
  return (
    input.campaign !== undefined &&
    input.category !== undefined &&
    input.category_id !== undefined &&
    input.categories !== undefined &&
    input.assets !== undefined &&
    input.redemption !== undefined &&
    input.publish !== undefined
  );
}

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
