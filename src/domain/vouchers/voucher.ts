import { hash } from "node:crypto";
import { z } from "zod";
import type { Campaign } from "../campaigns/campaign.js";
import {
  category,
  freeObject,
  idWithPrefix,
  metadata,
  nullableTimestamp,
  timestamp,
} from "../shared/schema-parts.js";

const linkedImage = z.strictObject({ id: z.string(), url: z.string() });

/**
 * A voucher as the spec describes it. `campaign`, the category fields, `assets`, `redemption`, `publish` and
 * `object` follow from the other fields, so fixtures may leave them out and the loader fills them in
 * (completeVoucher, below).
 */
export const voucherSchema = z.strictObject({
  id: idWithPrefix("v"),
  code: z.string().min(1).max(300),
  campaign: z.string().optional(),
  campaign_id: idWithPrefix("camp"),
  /** A card's category is its campaign's unless the fixture gives its own. */
  category: z.string().nullable().optional(),
  category_id: z.string().nullable().optional(),
  categories: z.array(category).optional(),
  type: z.enum(["LOYALTY_CARD", "DISCOUNT_VOUCHER", "GIFT_VOUCHER"]),
  discount: freeObject.nullable().default(null),
  gift: freeObject.nullable().default(null),
  loyalty_card: z
    .strictObject({
      points: z.number().int(),
      balance: z.number().int(),
      next_expiration_date: z.string().nullable().optional(),
      next_expiration_points: z.number().int().nullable().optional(),
      pending_points: z.number().int().nullable().optional(),
      expired_points: z.number().int().nullable().optional(),
      subtracted_points: z.number().int().nullable().optional(),
    })
    .nullable()
    .default(null),
  start_date: nullableTimestamp.default(null),
  expiration_date: nullableTimestamp.default(null),
  validity_timeframe: z
    .strictObject({ duration: z.string().nullable().optional(), interval: z.string().nullable().optional() })
    .nullable()
    .default(null),
  validity_day_of_week: z.array(z.number().int().min(0).max(6)).nullable().default(null),
  active: z.boolean().default(true),
  additional_info: z.string().nullable().default(null),
  metadata: metadata.default({}),
  assets: z.strictObject({ qr: linkedImage, barcode: linkedImage }).optional(),
  is_referral_code: z.boolean().default(false),
  created_at: timestamp,
  updated_at: nullableTimestamp.default(null),
  holder_id: idWithPrefix("cust").nullable().optional(),
  redemption: z
    .strictObject({
      quantity: z.number().int().nullable(),
      redeemed_quantity: z.number().int(),
      redeemed_points: z.number().int(),
      object: z.literal("list"),
      url: z.string(),
    })
    .optional(),
  publish: z
    .strictObject({ object: z.literal("list"), count: z.number().int().min(0), url: z.string() })
    .optional(),
  object: z.literal("voucher").default("voucher"),
});

export type VoucherInput = z.output<typeof voucherSchema>;

/** A stored voucher: the derived parts filled in. */
export type Voucher = Omit<VoucherInput, "category" | "category_id" | "categories"> &
  Required<Pick<VoucherInput, "campaign" | "assets" | "redemption" | "publish">> & {
    category: string | null;
    category_id: string | null;
    categories: NonNullable<VoucherInput["categories"]>;
    holder_id?: string | null;
  };

/** A card held by a customer counts one publication unless its record says otherwise. */
export function publishCount(voucher: VoucherInput): number {
  return voucher.publish?.count ?? (voucher.holder_id ? 1 : 0);
}

/** Where the emulator says a voucher's QR and barcode images live; the real service links to its asset host. */
const DEFAULT_ASSETS_BASE_URL = "https://assets.loyalty-mock.invalid";

/**
 * The service identifies asset images by an encrypted form of the code (ids begin `U2FsdGVkX1`, the salted-cipher
 * header). The emulator keeps the look and makes the id a stable digest, so the same code always has the same id.
 */
function assetId(code: string, kind: "qr" | "barcode"): string {
  // One-shot hashing: the same digest as createHash().update().digest(), at a fraction of the cost per card read.
  return `U2FsdGVkX1${hash("sha256", `${kind}:${code}`, "base64url").slice(0, 32)}`;
}

function voucherAssets(code: string, baseUrl: string = DEFAULT_ASSETS_BASE_URL): Voucher["assets"] {
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
