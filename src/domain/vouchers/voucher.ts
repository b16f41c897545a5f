import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { category, idWithPrefix, metadata, nullableTimestamp, timestamp } from "../shared/schema-parts.js";

const linkedImage = z.strictObject({ id: z.string(), url: z.string() });

/**
 * A voucher as the spec describes it. `campaign`, the category fields, `assets`, `redemption`, `publish` and
 * `object` follow from the other fields, so fixtures may leave them out and the loader fills them in
 * (see voucher-view.ts).
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
  discount: z.record(z.string(), z.unknown()).nullable().default(null),
  gift: z.record(z.string(), z.unknown()).nullable().default(null),
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

export class VoucherStore extends RecordStore<Voucher> {
  readonly findByCode = this.index((voucher) => voucher.code);

  constructor(vouchers: Iterable<Voucher> = []) {
    super("voucher", vouchers);
  }
}
