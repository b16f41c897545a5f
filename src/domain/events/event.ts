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
    .strictObject({ code: z.string().optional(), referrer_id: z.string().optional() })
    .nullable()
    .default(null),
  loyalty: z.strictObject({ code: z.string().optional() }).nullable().default(null),
  metadata: metadata.default({}),
  created_at: timestamp,
});

export type RecordedEvent = z.output<typeof recordedEventSchema>;

export class EventStore extends RecordStore<RecordedEvent> {
  constructor(events: Iterable<RecordedEvent> = []) {
    super("event", events);
  }
}
