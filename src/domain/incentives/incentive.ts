import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { int64 } from "../shared/int64.js";
import { hexId, nullableTimestamp, timestamp } from "../shared/schema-parts.js";

/** Numeric fields every, value and balance accept integers up to the 64-bit range (spec, "Incentive"). */
const value = int64(0);
const every = int64(1);
const cardDefinitionId = z.string().regex(/^lcdef_[a-f0-9]+$/, "must match ^lcdef_[a-f0-9]+$");
const productId = z.string().regex(/^prod_[a-f0-9]+/, "must match ^prod_[a-f0-9]+");
const skuId = z.string().regex(/^sku_[a-f0-9]+/, "must match ^sku_[a-f0-9]+");
const campaignId = z.string().regex(/^camp_[a-zA-Z0-9]+/, "must match ^camp_[a-zA-Z0-9]+");

const everyValue = z.strictObject({ every, value });
const metadataEvery = z.strictObject({ every, value, property: z.string().min(1) });
/** An entry names what it applies to by its type; the object of that type must be there. */
const applicableTo = z
  .strictObject({
    type: z.enum(["product", "sku", "products_collection"]),
    product: z.strictObject({ id: productId }).optional(),
    sku: z.strictObject({ id: skuId }).optional(),
    products_collection: z.strictObject({ id: z.string().regex(/^pc_[a-zA-Z0-9]+/) }).optional(),
  })
  .superRefine((entry, ctx) => {
    if (entry[entry.type] === undefined)
      ctx.addIssue({ code: "custom", path: [entry.type], message: `is required when type is ${entry.type}` });
  });
const itemsEvery = z.strictObject({
  every,
  value,
  applicable_to: z.array(applicableTo).min(1),
});

/** Which sub-object each calculation type needs (spec table under "Incentive"). */
const CALCULATION_PATHS = {
  PRE_DISCOUNT_ORDER_AMOUNT: ["order", "amount"],
  POST_DISCOUNT_ORDER_AMOUNT: ["order", "total_amount"],
  ORDER_METADATA_VALUE: ["order", "metadata"],
  CUSTOMER_METADATA_VALUE: ["customer", "metadata"],
  PRE_DISCOUNT_ORDER_ITEMS_AMOUNT: ["order_items", "amount"],
  POST_DISCOUNT_ORDER_ITEMS_AMOUNT: ["order_items", "subtotal_amount"],
  ORDER_ITEMS_QUANTITY: ["order_items", "quantity"],
} as const;

type CalculationType = keyof typeof CALCULATION_PATHS;

const pointsProportional = z
  .strictObject({
    calculation_type: z.enum(Object.keys(CALCULATION_PATHS) as [CalculationType, ...CalculationType[]]),
    card_definition_id: cardDefinitionId,
    order: z
      .strictObject({
        amount: everyValue.optional(),
        total_amount: everyValue.optional(),
        metadata: metadataEvery.optional(),
      })
      .optional(),
    customer: z.strictObject({ metadata: metadataEvery }).optional(),
    order_items: z
      .strictObject({
        amount: itemsEvery.optional(),
        subtotal_amount: itemsEvery.optional(),
        quantity: itemsEvery.optional(),
      })
      .optional(),
  })
  .superRefine((value, ctx) => {
    // The calculation type picks one sub-object; another one beside it would leave the points ambiguous.
    const presentAt = ([group, field]: readonly [string, string]) =>
      (value[group as keyof typeof value] as Record<string, unknown> | undefined)?.[field] !== undefined;
    const chosen = CALCULATION_PATHS[value.calculation_type];
    const issue = (path: readonly [string, string], rule: string) =>
      ctx.addIssue({
        code: "custom",
        path: [...path],
        message: `is ${rule} when calculation_type is ${value.calculation_type}`,
      });
    if (!presentAt(chosen)) issue(chosen, "required");
    for (const path of Object.values(CALCULATION_PATHS))
      if (path !== chosen && presentAt(path)) issue(path, "not allowed");
  });

/**
 * A `type` that names which of its sibling objects is present (spec: "exactly one of"): the named one is
 * required, the others must be absent or null, so the type and the data cannot disagree.
 */
function objectChosenByType(byType: Record<string, string>) {
  return (value: { type: string } & Record<string, unknown>, ctx: z.RefinementCtx) => {
    const present = (key: string) => value[key] !== undefined && value[key] !== null;
    const chosen = byType[value.type];
    if (chosen && !present(chosen))
      ctx.addIssue({ code: "custom", path: [chosen], message: `is required when type is ${value.type}` });
    for (const key of Object.values(byType))
      if (key !== chosen && present(key))
        ctx.addIssue({ code: "custom", path: [key], message: `is not allowed when type is ${value.type}` });
  };
}

const material = z
  .strictObject({
    type: z.enum(["PRODUCT", "SKU"]),
    product: z.strictObject({ id: productId }).nullable().optional(),
    sku: z.strictObject({ product_id: productId, id: skuId }).nullable().optional(),
  })
  .superRefine(objectChosenByType({ PRODUCT: "product", SKU: "sku" }));

const digital = z
  .strictObject({
    type: z.enum(["GIFT_VOUCHERS", "DISCOUNT_COUPONS"]),
    discount_coupons: z.strictObject({ campaign_id: campaignId }).nullable().optional(),
    gift_vouchers: z.strictObject({ campaign_id: campaignId, balance: value }).nullable().optional(),
  })
  .superRefine(objectChosenByType({ DISCOUNT_COUPONS: "discount_coupons", GIFT_VOUCHERS: "gift_vouchers" }));

const DETAIL_BY_TYPE = {
  POINTS: "points",
  POINTS_PROPORTIONAL: "points_proportional",
  MATERIAL: "material",
  DIGITAL: "digital",
} as const;

export const incentiveSchema = z
  .strictObject({
    id: hexId("linc"),
    name: z.string().min(1).max(200),
    type: z.enum(["POINTS", "POINTS_PROPORTIONAL", "MATERIAL", "DIGITAL"]),
    status: z.enum(["DRAFT", "ACTIVE", "DELETED"]),
    stock: z.number().int().min(0).max(2_147_483_647),
    points: z.strictObject({ value, card_definition_id: cardDefinitionId }).optional(),
    points_proportional: pointsProportional.optional(),
    material: material.optional(),
    digital: digital.optional(),
    created_at: timestamp,
    updated_at: nullableTimestamp.default(null),
    object: z.literal("incentive").default("incentive"),
  })
  // The type decides which detail object is present: that one, and no other.
  .superRefine(objectChosenByType(DETAIL_BY_TYPE));

export type Incentive = z.output<typeof incentiveSchema>;

export class IncentiveStore extends RecordStore<Incentive> {}
