import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { idWithPrefix, nullableTimestamp, timestamp } from "../shared/schema-parts.js";

/** Property types of the service's metadata schemas that the emulator checks. */
const METADATA_TYPES = ["string", "number", "boolean", "date", "datetime", "object"] as const;

export const eventSchemaSchema = z.strictObject({
  id: idWithPrefix("ms"),
  name: z.string().min(1).max(300),
  schema: z.strictObject({
    properties: z
      .record(
        z.string().min(1),
        z.strictObject({
          type: z.enum(METADATA_TYPES),
          array: z.boolean().default(false),
          optional: z.boolean().default(true),
        }),
      )
      .default({}),
  }),
  created_at: timestamp,
  updated_at: nullableTimestamp.default(null),
  object: z.literal("custom-event-schema").default("custom-event-schema"),
});

export type EventSchema = z.output<typeof eventSchemaSchema>;

/** The project's custom event definitions, found by event name. */
export class EventSchemaStore extends RecordStore<EventSchema> {
  readonly findByName = this.index((schema) => schema.name);
}
