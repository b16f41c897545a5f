import { newWebhookSchema, webhookSchema } from "../../domain/webhooks/endpoint.js";
import { DELIVERY_STATUSES } from "../../domain/webhooks/outbox.js";
import { operation, P, query, ref, type Schema } from "./openapi-operation.js";
import { fromZod, listSchema } from "./openapi-schemas.js";

const str: Schema = { type: "string" };
const dateTime: Schema = { type: "string", format: "date-time" };
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: "null" }] });

function exact(properties: Record<string, Schema>): Schema {
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

/** The webhook endpoint, its input, the envelope sent and the delivery record. */
export function webhookSchemas(): Record<string, Schema> {
  return {
    Webhook: fromZod(webhookSchema, "output"),
    NewWebhook: fromZod(newWebhookSchema, "input"),
    WebhookEnvelope: exact({
      id: str,
      project_id: str,
      created_at: dateTime,
      type: str,
      data: { type: "object" },
      source: nullable(exact({ id: str, object: { const: "webhook" }, target_url: str })),
      event: exact({
        id: str,
        type: str,
        created_at: dateTime,
        entity_id: str,
        group_id: str,
        event_source: exact({ channel: { const: "API" }, api_key: exact({ name: str, app_id: str }) }),
      }),
    }),
    WebhookDelivery: exact({
      id: str,
      object: { const: "webhook_delivery" },
      webhook_id: nullable(str),
      url: nullable(str),
      type: str,
      status: { enum: [...DELIVERY_STATUSES] },
      created_at: dateTime,
      envelope: ref("WebhookEnvelope"),
      attempts: { type: "integer", minimum: 0 },
      response_status: nullable({ type: "integer" }),
      response_time_ms: nullable({ type: "integer", minimum: 0 }),
      last_attempt_at: nullable(dateTime),
      error: nullable(str),
    }),
  };
}

const W = [...P, "webhookId"];
const D = [...P, "deliveryId"];

export function webhookPaths(): Record<string, Schema> {
  return {
    "/__mock/projects/{projectId}/webhooks": {
      get: operation("webhooks", {
        summary: "The project's webhook endpoints",
        params: P,
        ok: listSchema("webhooks", ref("Webhook")),
      }),
      post: operation("webhooks", {
        summary: "Add a webhook endpoint",
        description:
          "The secret is generated when absent. 400 for a URL that is not http(s) or names a host other than " +
          "loopback (unless WEBHOOK_HOSTS allows it); 409 limit_exceeded when the project holds WEBHOOK_LIMIT.",
        params: P,
        body: ref("NewWebhook"),
        status: 201,
        ok: ref("Webhook"),
        errors: [409],
      }),
    },
    "/__mock/projects/{projectId}/webhooks/{webhookId}": {
      delete: operation("webhooks", { summary: "Delete a webhook endpoint", params: W, status: 204, ok: {} }),
    },
    "/__mock/projects/{projectId}/webhooks/deliveries": {
      get: operation("webhooks", {
        summary: "The project's webhook deliveries (its outbox), oldest first",
        description: "`total` counts every delivery that matches; `limit` shows only the newest of them.",
        params: P,
        query: [
          query("type", "Only deliveries of this event type"),
          query("status", "Only deliveries in this status", { enum: [...DELIVERY_STATUSES] }),
          query("webhook_id", "Only deliveries to this endpoint"),
          query("limit", "Only the newest this many", { type: "integer", minimum: 1 }),
        ],
        ok: listSchema("deliveries", ref("WebhookDelivery")),
        errors: [400],
      }),
      delete: operation("webhooks", { summary: "Empty the outbox", params: P, status: 204, ok: {} }),
    },
    "/__mock/projects/{projectId}/webhooks/deliveries/{deliveryId}/resend": {
      post: operation("webhooks", {
        summary: "Send a delivery again to its endpoint",
        description:
          "Queued again with the same envelope, signed with the endpoint's secret as it is now. 409 when the " +
          "delivery was not_sent (no endpoint), is pending, or its endpoint has been deleted.",
        params: D,
        status: 202,
        ok: ref("WebhookDelivery"),
        errors: [409],
      }),
    },
  };
}
