import { collection } from "../collection.js";
import { seeded } from "../record-store.js";
import { WebhookStore, webhookSchema } from "./endpoint.js";

/** A project's webhook endpoints, in the order they were added (the control API has its own routes for them). */
export const webhookCollection = collection({
  name: "webhooks",
  schema: webhookSchema,
  resourceType: "webhook",
  label: "webhook",
  key: "id",
  store: (endpoints, { resourceType }) => seeded(new WebhookStore(resourceType), endpoints),
});
