import { z } from "zod";
import { DELIVERY_STATUSES } from "../../domain/webhooks/outbox.js";
import { dateTime } from "./answers.js";

/** What the outbox keeps of a notification: the envelope sent and how each attempt went. */

export const webhookEnvelopeAnswer = z.strictObject({
  id: z.string(),
  project_id: z.string(),
  created_at: dateTime,
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  source: z.strictObject({ id: z.string(), object: z.literal("webhook"), target_url: z.string() }).nullable(),
  event: z.strictObject({
    id: z.string(),
    type: z.string(),
    created_at: dateTime,
    entity_id: z.string(),
    group_id: z.string(),
    event_source: z.strictObject({
      channel: z.literal("API"),
      api_key: z.strictObject({ name: z.string(), app_id: z.string() }),
    }),
  }),
});

export const webhookDeliveryAnswer = z.strictObject({
  id: z.string(),
  object: z.literal("webhook_delivery"),
  webhook_id: z.string().nullable(),
  url: z.string().nullable(),
  type: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  created_at: dateTime,
  envelope: webhookEnvelopeAnswer,
  attempts: z.int().min(0),
  response_status: z.int().nullable(),
  response_time_ms: z.int().min(0).nullable(),
  last_attempt_at: dateTime.nullable(),
  error: z.string().nullable(),
});

/** The data of the live feed's `change` events. */
export const feedBatchAnswer = z.looseObject({
  topics: z
    .array(z.string())
    .describe("records, requests, clock, project, faults, settings, keys, webhooks, ..."),
  collections: z.array(z.string()).describe("Collections whose records changed"),
  requests: z
    .array(
      z.looseObject({
        method: z.string(),
        path: z.string(),
        status: z.int().nullable(),
        operation: z
          .string()
          .nullable()
          .describe(
            "The operation whose route the request took (its row's name), a request a fault rule or the rate limit answered first included; null when no operation's route takes it",
          ),
        time_ms: z.number(),
      }),
    )
    .describe("The newest journal entries of the window (at most 20)"),
  requests_count: z.int().min(0),
});
