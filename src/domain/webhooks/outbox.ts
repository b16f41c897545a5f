import { Ring } from "../../emulation/journal/ring.js";
import type { PostOutcome } from "../../platform/http-post.js";
import type { IdSource } from "../../platform/ids.js";
import { notFound } from "../errors.js";
import type { Envelope } from "./envelope.js";

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
  ids: IdSource,
  endpoint: { id: string; url: string } | null,
  envelope: Envelope,
  nowIso: string,
): Delivery {
  return {
    id: ids.v2Id("whd"),
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

export interface DeliveryFilter {
  type?: string | undefined;
  status?: DeliveryStatus | undefined;
  webhook_id?: string | undefined;
  /** Only the newest this many of those that match. */
  limit?: number | undefined;
}

/**
 * A project's deliveries, newest kept, oldest dropped past the capacity (WEBHOOK_OUTBOX_SIZE), so a server nobody
 * reads stays bounded. Kept in memory only: a restart or a reset starts an empty outbox, as the journal does.
 */
export class Outbox {
  readonly #ring = new Ring<Delivery>(0);

  add(delivery: Delivery, capacity: number): void {
    if (this.#ring.capacity !== capacity) this.#ring.resize(capacity);
    this.#ring.push(delivery);
  }

  get size(): number {
    return this.#ring.size;
  }

  /** Oldest first. */
  list(filter: DeliveryFilter = {}): Delivery[] {
    const matching = this.#ring
      .toArray()
      .filter(
        (d) =>
          (filter.type === undefined || d.type === filter.type) &&
          (filter.status === undefined || d.status === filter.status) &&
          (filter.webhook_id === undefined || d.webhook_id === filter.webhook_id),
      );
    return filter.limit === undefined ? matching : matching.slice(-filter.limit);
  }

  get(id: string): Delivery {
    const delivery = this.#ring.toArray().find((d) => d.id === id);
    if (!delivery) throw notFound("webhook_delivery", id);
    return delivery;
  }

  clear(): number {
    return this.#ring.clear();
  }
}
