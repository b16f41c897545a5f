import { Ring } from "../../emulation/journal/ring.js";
import type { PostOutcome } from "../../platform/http-post.js";
import type { IdSource } from "../../platform/ids.js";
import { notFound } from "../errors.js";
import { type Envelope, envelopeOf, eventId, eventOf, type NotificationCause } from "./envelope.js";
import type { Notification } from "./notification.js";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "not_sent"] as const;
type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One sendout as the audit log ("webhook send outs") keeps it: the envelope sent, to which endpoint, and how the
 * receiver answered its last attempt. A notification no active endpoint wanted is kept once as `not_sent`, with
 * no endpoint, so a test without a receiver can still see what would have gone out.
 */
export interface Delivery {
  id: string;
  object: "webhook_delivery";
  webhook_id: string | null;
  url: string | null;
  type: string;
  status: DeliveryStatus;
  created_at: string;
  envelope: Envelope;
  attempts: number;
  response_status: number | null;
  response_time_ms: number | null;
  last_attempt_at: string | null;
  error: string | null;
}

/** A delivery of a notification to an endpoint (pending), or of one no endpoint took (not_sent). */
export function newDelivery(
  endpoint: { id: string; url: string } | null,
  envelope: Envelope,
  nowIso: string,
  id: string,
): Delivery {
  return {
    id,
    object: "webhook_delivery",
    webhook_id: endpoint?.id ?? null,
    url: endpoint?.url ?? null,
    type: envelope.type,
    status: endpoint ? "pending" : "not_sent",
    created_at: nowIso,
    envelope,
    attempts: 0,
    response_status: null,
    response_time_ms: null,
    last_attempt_at: null,
    error: null,
  };
}

/** An attempt's outcome: delivered on a 2xx read to its end (the vendor's rule), failed with the reason otherwise. */
export function recordOutcome(delivery: Delivery, outcome: PostOutcome): void {
  const ok =
    outcome.error === null && outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  delivery.status = ok ? "delivered" : "failed";
  delivery.response_status = outcome.status;
  delivery.response_time_ms = outcome.status === null ? null : outcome.timeMs;
  delivery.error = ok
    ? null
    : (outcome.error ?? `the receiver answered ${outcome.status}; a 2xx is expected`);
}

/**
 * A notification no endpoint took, kept as what its `not_sent` delivery is made of (its ids: with a seed drawn when
 * it happened, in the order an eager build draws them, without one when first read; the notification, whose data is built from records never
 * changed in place; the time and cause) and built the first time the outbox is read. Such a delivery never changes
 * afterwards (a resend refuses it), so building it late shows exactly what building it then would have; a card
 * assignment no one reads the outbox of then costs no envelope, event or delivery (issue 26).
 */
export class UnsentDelivery {
  /** Drawn when it happened from a seeded source; from the CSPRNG, the first time they are asked for. */
  #ids: readonly [event: string, envelope: string, delivery: string] | undefined;
  readonly #source: IdSource;
  readonly #projectId: string;
  readonly #notification: Notification;
  readonly #nowIso: string;
  readonly #cause: NotificationCause;
  #built: Delivery | undefined;

  constructor(
    ids: IdSource,
    projectId: string,
    notification: Notification,
    nowIso: string,
    cause: NotificationCause,
  ) {
    this.#source = ids;
    this.#projectId = projectId;
    this.#notification = notification;
    this.#nowIso = nowIso;
    this.#cause = cause;
    // A seeded project's values follow from the order they are drawn in, so its ids are drawn now, in the order an
    // eager build draws them. Without a seed they are random whenever drawn, and most are never read: drawn later.
    if (ids.seeded) this.#ids = this.#draw();
  }

  #draw(): readonly [event: string, envelope: string, delivery: string] {
    const ids = this.#source;
    return [eventId(this.#notification.type, ids), ids.v2Id("whs"), ids.v2Id("whd")];
  }

  #idsOf(): readonly [event: string, envelope: string, delivery: string] {
    this.#ids ??= this.#draw();
    return this.#ids;
  }

  /** The delivery's id, known without building it. */
  get id(): string {
    return this.#idsOf()[2];
  }

  /** What the dashboard groups a delivery by, known without building it: the request that caused it, its type. */
  get brief(): DeliveryBrief {
    return {
      request_id: this.#cause.requestId,
      type: this.#notification.type,
      status: "not_sent",
      created_at: this.#nowIso,
    };
  }

  build(): Delivery {
    if (this.#built) return this.#built;
    const [eventIdOf, envelopeId, deliveryId] = this.#idsOf();
    const event = eventOf(this.#notification, this.#nowIso, this.#cause, eventIdOf);
    const envelope = envelopeOf(this.#projectId, this.#notification, event, null, envelopeId);
    this.#built = newDelivery(null, envelope, this.#nowIso, deliveryId);
    return this.#built;
  }
}

type Kept = Delivery | UnsentDelivery;

/** A delivery in brief: the request that caused it (its envelope's `event.group_id`), its type, its status. */
export interface DeliveryBrief {
  request_id: string;
  type: string;
  status: DeliveryStatus;
  created_at: string;
}

function briefOf(kept: Kept): DeliveryBrief {
  if (kept instanceof UnsentDelivery) return kept.brief;
  return {
    request_id: kept.envelope.event.group_id,
    type: kept.type,
    status: kept.status,
    created_at: kept.created_at,
  };
}

function built(kept: Kept): Delivery {
  return kept instanceof UnsentDelivery ? kept.build() : kept;
}

export interface DeliveryFilter {
  type?: string | undefined;
  status?: DeliveryStatus | undefined;
  webhook_id?: string | undefined;
}

/**
 * A project's deliveries, newest kept, oldest dropped past the capacity (WEBHOOK_OUTBOX_SIZE), so a server nobody
 * reads stays bounded. Kept in memory only: a restart or a reset starts an empty outbox, as the journal does.
 */
export class Outbox {
  readonly #ring = new Ring<Kept>(0);

  add(delivery: Kept, capacity: number): void {
    if (this.#ring.capacity !== capacity) this.#ring.resize(capacity);
    this.#ring.push(delivery);
  }

  get size(): number {
    return this.#ring.size;
  }

  /** Oldest first. */
  list(filter: DeliveryFilter = {}): Delivery[] {
    return this.#ring
      .toArray()
      .map(built)
      .filter(
        (d) =>
          (filter.type === undefined || d.type === filter.type) &&
          (filter.status === undefined || d.status === filter.status) &&
          (filter.webhook_id === undefined || d.webhook_id === filter.webhook_id),
      );
  }

  /** Oldest first, each in brief: a delivery no one took is not built for it (its envelope, its ids). */
  briefs(): DeliveryBrief[] {
    return this.#ring.toArray().map(briefOf);
  }

  get(id: string): Delivery {
    // Only the one asked for is built: each kept delivery knows its id.
    const kept = this.#ring.toArray().find((d) => d.id === id);
    if (!kept) throw notFound("webhook_delivery", id);
    return built(kept);
  }

  clear(): number {
    return this.#ring.clear();
  }
}
