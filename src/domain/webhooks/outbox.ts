import { notFound } from "../errors.js";
import { Ring } from "../journal/ring.js";
import type { Envelope } from "./envelope.js";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "not_sent"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

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
