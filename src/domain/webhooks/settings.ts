import type { AllowedHosts } from "./target.js";

/** The server-wide delivery settings (config/settings.ts: WEBHOOK_TIMEOUT_MS, _QUEUE_LIMIT, _OUTBOX_SIZE, _HOSTS). */
export interface WebhookSettings {
  /** Longest one attempt may take, connection to the answer's end; the vendor allows its receivers 10 s. */
  timeoutMs: number;
  /** Deliveries that may wait behind the one in flight, per endpoint; past it a delivery fails at once. */
  queueLimit: number;
  /** Deliveries each project's outbox keeps (the newest); 0 keeps none, and deliveries still go out. */
  outboxSize: number;
  hosts: AllowedHosts;
}
