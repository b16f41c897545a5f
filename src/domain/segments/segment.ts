import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { idWithPrefix, timestamp } from "../shared/schema-parts.js";

export const segmentSchema = z.strictObject({
  id: idWithPrefix("seg"),
  name: z.string().min(1),
  type: z.enum(["static", "auto-update"]).default("static"),
  customer_ids: z.array(idWithPrefix("cust")).default([]),
  created_at: timestamp,
  object: z.literal("segment").default("segment"),
});

export type Segment = z.output<typeof segmentSchema>;

export class SegmentStore extends RecordStore<Segment> {}
