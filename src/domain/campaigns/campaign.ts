import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { category, idWithPrefix, metadata, nullableTimestamp, timestamp } from "../shared/schema-parts.js";

/**
 * How a campaign makes codes, as the service's `code_config`: `pattern` uses `#` for each random character
 * (`LC-####-####`); without a pattern, `prefix` + `length` random characters from `charset` + `postfix`.
 */
const codeConfigSchema = z
  .strictObject({
    length: z.number().int().min(1).max(100).optional(),
    charset: z.string().min(2).default("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
    prefix: z.string().default(""),
    postfix: z.string().default(""),
    pattern: z.string().min(1).optional(),
  })
  .refine((config) => config.pattern === undefined || config.pattern.includes("#"), {
    message: "pattern must hold at least one # (a random character)",
    path: ["pattern"],
  });

const CAMPAIGN_TYPES = [
  "LOYALTY_PROGRAM",
  "DISCOUNT_COUPONS",
  "GIFT_VOUCHERS",
  "REFERRAL_PROGRAM",
  "PROMOTION",
  "LUCKY_DRAW",
] as const;

export const campaignSchema = z
  .strictObject({
    id: idWithPrefix("camp"),
    name: z.string().min(1),
    description: z.string().nullable().default(null),
    campaign_type: z.enum(CAMPAIGN_TYPES),
    /** AUTO_UPDATE campaigns make a new code when a publication finds none left; STATIC ones do not. */
    type: z.enum(["AUTO_UPDATE", "STATIC"]).default("STATIC"),
    /** Customers may hold one card only; on by default for loyalty programs. */
    join_once: z.boolean().optional(),
    auto_join: z.boolean().default(false),
    active: z.boolean().default(true),
    start_date: nullableTimestamp.default(null),
    expiration_date: nullableTimestamp.default(null),
    category: z.string().nullable().default(null),
    category_id: z.string().nullable().default(null),
    categories: z.array(category).default([]),
    voucher: z.strictObject({
      type: z.enum(["LOYALTY_CARD", "DISCOUNT_VOUCHER", "GIFT_VOUCHER"]),
      loyalty_card: z.strictObject({ points: z.number().int().min(0) }).optional(),
      code_config: codeConfigSchema.default({
        charset: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
        prefix: "",
        postfix: "",
        length: 8,
      }),
      is_referral_code: z.boolean().default(false),
    }),
    metadata: metadata.default({}),
    created_at: timestamp,
    updated_at: nullableTimestamp.default(null),
    object: z.literal("campaign").default("campaign"),
  })
  .transform((campaign) => ({
    ...campaign,
    join_once: campaign.join_once ?? campaign.campaign_type === "LOYALTY_PROGRAM",
  }));

export type Campaign = z.output<typeof campaignSchema>;

/** Campaigns of a project, found by id or, as the members endpoint allows, by their unique name. */
export class CampaignStore extends RecordStore<Campaign> {
  readonly findByName = this.index((campaign) => campaign.name);
}
