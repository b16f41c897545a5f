import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { idWithPrefix, metadata, timestamp } from "../shared/schema-parts.js";

/** A recorded custom event, as kept in the project for tests to read back. */
export const recordedEventSchema = z.strictObject({
  id: idWithPrefix("evcus"),
  object: z.literal("event").default("event"),
  type: z.string().min(1).max(300),
  customer_id: idWithPrefix("cust"),
  referral: z
    .strictObject({
      code: z.string().optional(),
      referrer_id: z.string().optional(),
      /** The referral card the code named, when the event recorded a conversion for its holder. */
      voucher_id: idWithPrefix("v").optional(),
    })
    .nullable()
    .default(null),
  loyalty: z.strictObject({ code: z.string().optional() }).nullable().default(null),
  metadata: metadata.default({}),
  /** Points the event earned through earning rules, so tests can see why a card's balance moved. */
  earned: z
    .array(
      z.strictObject({
        earning_rule_id: z.string().min(1),
        voucher_id: idWithPrefix("v"),
        points: z.number().int(),
        /**
         * The card's points once this earning was added to them: where it stood among its tiers right after, so
         * the moment it reached one is told from the event alone (domain/tiers/standing.ts). Absent from an event
         * an earlier version recorded (or one written by hand): no moment is told of it.
         */
        points_after: z.number().int().optional(),
      }),
    )
    .default([]),
  created_at: timestamp,
});

export type RecordedEvent = z.output<typeof recordedEventSchema>;

export class EventStore extends RecordStore<RecordedEvent> {}
