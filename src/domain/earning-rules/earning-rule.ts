import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { hexId, idWithPrefix, nullableTimestamp, timestamp } from "../shared/schema-parts.js";

/**
 * An earning rule: when the named custom event is recorded for a customer, their card in the campaign gains the
 * points. A rule may name the v2 incentive it pays out, which keeps that incentive from being deleted.
 */
export const earningRuleSchema = z.strictObject({
  id: hexId("lern"),
  object: z.literal("earning_rule").default("earning_rule"),
  name: z.string().min(1).optional(),
  status: z.enum(["ACTIVE", "INACTIVE"]).default("ACTIVE"),
  campaign_id: idWithPrefix("camp"),
  event: z.string().min(1).max(300),
  loyalty: z.strictObject({ type: z.literal("FIXED").default("FIXED"), points: z.number().int().min(0) }),
  incentive_id: hexId("linc").nullable().default(null),
  created_at: timestamp,
  updated_at: nullableTimestamp.default(null),
});

export type EarningRule = z.output<typeof earningRuleSchema>;

export class EarningRuleStore extends RecordStore<EarningRule> {
  /** Ids of the rules that pay out this incentive. */
  referencing(incentiveId: string): string[] {
    return this.list()
      .filter((rule) => rule.incentive_id === incentiveId)
      .map((rule) => rule.id);
  }
}
