import { createHmac, timingSafeEqual } from "node:crypto";
import { stringifyExact } from "../../platform/exact-json.js";
import type { IdSource } from "../../platform/ids.js";
import type { Notification } from "./notification.js";

/** Who caused a notification: the request and the API key behind it (`event.group_id`, `event.event_source`). */
export interface NotificationCause {
  requestId: string;
  apiKey: { name: string; app_id: string };
}

/** One happening: shared by the sendouts to every endpoint it goes to, as the real service's `event.id` is. */
export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  entity_id: string;
  group_id: string;
  event_source: { channel: "API"; api_key: { name: string; app_id: string } };
}

/**
 * The body of one sendout, in the vendor's order (project settings webhooks, "Project setting webhook payload";
 * DefaultPayloadData1 and 2 of the webhook schema). `source` is null only for a notification no endpoint took.
 */
export interface Envelope {
  id: string;
  project_id: string;
  created_at: string;
  type: string;
  data: Readonly<Record<string, unknown>>;
  source: { id: string; object: "webhook"; target_url: string } | null;
  event: WebhookEvent;
}

/** The prefix of an event id, per notification type (a handful of types, each worked out once). */
const EVENT_PREFIXES = new Map<string, string>();

/**
 * The event's id: `ev` and the first three letters of its resource, as the vendor's examples write them (`evred_`
 * for a redemption, `evcus_` for a customer); hex like the vendor's, 18 characters.
 */
export function eventId(type: string, ids: IdSource): string {
  let prefix = EVENT_PREFIXES.get(type);
  if (prefix === undefined) {
    prefix = `ev${(type.split(".")[0] ?? "").replace(/[^a-z]/g, "").slice(0, 3)}`;
    EVENT_PREFIXES.set(type, prefix);
  }
  return ids.v2Id(prefix);
}

/** The event a notification is, caused by `cause` at `nowIso`, under `id` (eventId, from the project's source). */
export function eventOf(
  notification: Notification,
  nowIso: string,
  cause: NotificationCause,
  id: string,
): WebhookEvent {
  return {
    id,
    type: notification.type,
    created_at: nowIso,
    entity_id: notification.entityId,
    group_id: cause.requestId,
    event_source: { channel: "API", api_key: { ...cause.apiKey } },
  };
}

export function envelopeOf(
  projectId: string,
  notification: Notification,
  event: WebhookEvent,
  source: Envelope["source"],
  // The sendout's id: the vendor's example is `whs_` and 18 hex characters.
  id: string,
): Envelope {
  return {
    id,
    project_id: projectId,
    created_at: event.created_at,
    type: notification.type,
    data: notification.data,
    source,
    event,
  };
}

/**
 * The `x-voucherify-signature` of a body: hex HMAC-SHA256 of the body as sent (compact JSON, which is what the
 * vendor's method rebuilds: JSON.stringify of the parsed object, or the text with whitespace removed), keyed with
 * the endpoint's secret.
 */
export function signBody(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

/**
 * Whether a signature is the one this body was sent with, compared in constant time. `body` is the request's
 * text as received, or the object parsed from it (it is then serialised compactly, as the vendor's helper does).
 */
export function verifySignature(signature: string, body: string | object, secret: string): boolean {
  const text = typeof body === "string" ? body : stringifyExact(body);
  const expected = Buffer.from(signBody(text, secret), "utf8");
  const given = Buffer.from(signature.trim().toLowerCase(), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
