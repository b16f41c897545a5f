import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { idWithPrefix, metadata, timestamp } from "../shared/schema-parts.js";

/** A publication: the record of a code handed to a customer. */
export const publicationSchema = z.strictObject({
  id: idWithPrefix("pub"),
  object: z.literal("publication").default("publication"),
  created_at: timestamp,
  customer_id: idWithPrefix("cust"),
  campaign_id: idWithPrefix("camp"),
  voucher_id: idWithPrefix("v"),
  channel: z.string().default("API"),
  source_id: z.string().nullable().default(null),
  metadata: metadata.default({}),
  result: z.literal("SUCCESS").default("SUCCESS"),
});

export type Publication = z.output<typeof publicationSchema>;

export class PublicationStore extends RecordStore<Publication> {
  readonly findBySourceId = this.index((publication) => publication.source_id);
}
