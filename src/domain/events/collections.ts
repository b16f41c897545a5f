import { collection } from "../collection.js";
import { seeded } from "../record-store.js";
import { EventStore, recordedEventSchema } from "./event.js";
import { EventSchemaStore, eventSchemaSchema } from "./event-schema.js";

/** The custom events a project defines, by id and by name (POST /v1/events refuses any other name). */
export const eventSchemaCollection = collection({
  name: "event_schemas",
  schema: eventSchemaSchema,
  resourceType: "event_schema",
  label: "custom event",
  key: "id",
  unique: ["name"],
  store: (schemas, { resourceType }) => seeded(new EventSchemaStore(resourceType), schemas),
  view: { component: "EventSchema", filters: ["name"] },
});

/** The custom events a project has recorded (POST /v1/events). */
export const eventCollection = collection({
  name: "events",
  schema: recordedEventSchema,
  resourceType: "event",
  label: "event",
  key: "id",
  references: [{ field: "customer_id", to: "customers" }],
  store: (events, { resourceType }) => seeded(new EventStore(resourceType), events),
  keySets: (store) => ({ id: store }),
  view: { component: "RecordedEvent", filters: ["type", "customer_id"] },
});
