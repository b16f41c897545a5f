import { collection } from "../collection.js";
import { seeded } from "../record-store.js";
import { SegmentStore, segmentSchema } from "./segment.js";

/** A project's customer segments (Loyalty v2: what a tier may require its members to be in). */
export const segmentCollection = collection({
  name: "segments",
  schema: segmentSchema,
  resourceType: "vl_segment",
  label: "segment",
  key: "id",
  references: [{ field: "customer_ids[]", to: "customers" }],
  store: (segments, { resourceType }) => seeded(new SegmentStore(resourceType), segments),
  view: { component: "Segment", filters: ["name"] },
});
