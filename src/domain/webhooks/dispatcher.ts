import { stringifyExact } from "../../platform/exact-json.js";
import { type PostOutcome, type PostRequest, postJson } from "../../platform/http-post.js";
import { conflict } from "../errors.js";
import type { Project } from "../projects/project.js";
import { type Webhook, wants } from "./endpoint.js";
import { type Envelope, envelopeOf, eventId, eventOf, type NotificationCause, signBody } from "./envelope.js";
import type { Notification } from "./notification.js";
import { type Delivery, newDelivery, recordOutcome, UnsentDelivery } from "./outbox.js";
import type { WebhookSettings } from "./settings.js";
import { targetProblem } from "./target.js";

export type Send = (request: PostRequest) => Promise<PostOutcome>;

interface Job {
  project: Project;
  delivery: Delivery;
  endpoint: Pick<Webhook, "url" | "secret" | "headers">;
}

const NO_ENDPOINTS: readonly Webhook[] = [];

/** One endpoint's line: deliveries go out one at a time, in the order they were made. */
interface Lane {
  waiting: Job[];
  busy: boolean;
  /** A delivery is being attempted; until then the first waiting one is the next in flight, not queued. */
  sending: boolean;
}

/**
 * Sends each project's notifications to its endpoints off the request path: `notify` only records and queues (the
 * operation answers at its usual speed whatever the receivers do); each endpoint's deliveries then go out one at
 * a time, first made first sent, so a receiver sees them in the order their operations happened. A slow, failing
 * or unreachable receiver only ever holds up its own line, within the timeout, and ends recorded as failed.
 */
export class WebhookDispatcher {
  readonly settings: WebhookSettings;
  /** Told the project whenever one of its deliveries is made or changes status (the live dashboard listens). */
  onDeliveryChange: ((projectId: string) => void) | undefined;
  readonly #send: Send;
  readonly #lanes = new Map<string, Lane>();
  readonly #abort = new AbortController();
  #closing = false;
  #idle: (() => void)[] = [];

  /** `changed`: told like onDeliveryChange, for the server's own listener (the live feed), which a user's cannot replace. */
  readonly #told: ((projectId: string) => void) | undefined;

  constructor(settings: WebhookSettings, send: Send = postJson, changed?: (projectId: string) => void) {
    this.settings = { ...settings };
    this.#send = send;
    this.#told = changed;
  }

  /** Records the notifications an operation caused and queues a delivery per active endpoint that wants each. */
  notify(project: Project, notifications: readonly Notification[], cause: NotificationCause): void {
    if (notifications.length === 0) return;
    const endpoints = project.webhooks.size === 0 ? NO_ENDPOINTS : project.webhooks.list();
    const nowIso = project.clock.iso();
    for (const notification of notifications) {
      const takers =
        endpoints.length === 0
          ? NO_ENDPOINTS
          : endpoints.filter((endpoint) => wants(endpoint, notification.type));
      if (takers.length === 0 && this.settings.outboxSize === 0) continue;
      // The body is written when it is sent, later, from `data` as the use case built it: no copy (a structured
      // copy of four notifications cost a card assignment most of its CPU again). That is safe because `data` is
      // made fresh per notification and shares only stored records' parts, and records are replaced by put, never
      // changed in place (Notification's contract). For the same reason, a notification no endpoint takes is kept
      // unbuilt until someone reads the outbox.
      if (takers.length === 0) {
        project.outbox.add(
          new UnsentDelivery(project.ids, project.id, notification, nowIso, cause),
          this.settings.outboxSize,
        );
        this.#changed(project.id);
        continue;
      }
      const event = eventOf(notification, nowIso, cause, eventId(notification.type, project.ids));
      for (const endpoint of takers) {
        const source = { id: endpoint.id, object: "webhook" as const, target_url: endpoint.url };
        const delivery = this.#record(
          project,
          endpoint,
          envelopeOf(project.id, notification, event, source, project.ids.v2Id("whs")),
          nowIso,
        );
        this.#enqueue({ project, delivery, endpoint });
      }
    }
  }

  /**
   * Sends a delivery again to its endpoint, as it is now (its secret and headers), with the same envelope, so a
   * receiver can tell a repeat by its `id`. 409 when it has no endpoint, is still pending, or its endpoint is gone.
   */
  resend(project: Project, deliveryId: string): Delivery {
    const delivery = project.outbox.get(deliveryId);
    if (delivery.webhook_id === null)
      throw conflict(
        `Delivery ${deliveryId} was not sent: no active webhook endpoint wanted ${delivery.type}`,
      );
    if (delivery.status === "pending")
      throw conflict(`Delivery ${deliveryId} is pending: it is queued already`);
    const endpoint = project.webhooks.find(delivery.webhook_id);
    if (!endpoint)
      throw conflict(`Webhook ${delivery.webhook_id} of delivery ${deliveryId} has been deleted`);
    this.#enqueue({ project, delivery, endpoint });
    return delivery;
  }

  /**
   * Stops sending: deliveries still queued or in flight get `graceMs` to finish, then are aborted and recorded as
   * failed, so a stuck receiver never holds a shutdown for longer than that.
   */
  async close(graceMs: number = Math.min(this.settings.timeoutMs, 2000)): Promise<void> {
    this.#closing = true;
    if (this.#lanes.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([this.#whenIdle(), grace]);
    clearTimeout(timer);
    this.#abort.abort();
    await this.#whenIdle();
  }

  /** Resolves once no delivery is queued or in flight (tests wait on it rather than on time). */
  #whenIdle(): Promise<void> {
    if (this.#lanes.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Resolves once every delivery queued so far has been attempted. */
  settled(): Promise<void> {
    return this.#whenIdle();
  }

  #record(project: Project, endpoint: Webhook, envelope: Envelope, nowIso: string): Delivery {
    const delivery = newDelivery(endpoint, envelope, nowIso, project.ids.v2Id("whd"));
    project.outbox.add(delivery, this.settings.outboxSize);
    this.#changed(project.id);
    return delivery;
  }

  #enqueue(job: Job): void {
    const { delivery, project } = job;
    if (this.#closing) {
      this.#fail(job, "not sent: the server is shutting down");
      return;
    }
    const key = `${project.id}\0${delivery.webhook_id}`;
    let lane = this.#lanes.get(key);
    if (!lane) {
      lane = { waiting: [], busy: false, sending: false };
      this.#lanes.set(key, lane);
    }
    const queued = lane.waiting.length - (lane.sending ? 0 : 1);
    if (queued >= this.settings.queueLimit) {
      this.#fail(
        job,
        `not sent: ${queued} deliveries already wait for ${delivery.webhook_id} (LOYALTY_MOCK_WEBHOOK_QUEUE_LIMIT)`,
      );
      return;
    }
    delivery.status = "pending";
    delivery.error = null;
    lane.waiting.push(job);
    if (delivery.attempts > 0) this.#changed(project.id);
    if (!lane.busy) void this.#drain(key, lane);
  }

  async #drain(key: string, lane: Lane): Promise<void> {
    lane.busy = true;
    // The first send waits for the current turn to end: the operation's answer goes out before any delivery.
    await new Promise((resolve) => setImmediate(resolve));
    for (let job = lane.waiting.shift(); job; job = lane.waiting.shift()) {
      if (this.#abort.signal.aborted) this.#fail(job, "not sent: the server shut down first");
      else {
        lane.sending = true;
        await this.#attempt(job);
        lane.sending = false;
      }
    }
    lane.busy = false;
    this.#lanes.delete(key);
    if (this.#lanes.size === 0) for (const resolve of this.#idle.splice(0)) resolve();
  }

  async #attempt({ project, delivery, endpoint }: Job): Promise<void> {
    delivery.attempts++;
    delivery.last_attempt_at = project.clock.iso();
    const problem = targetProblem(endpoint.url, this.settings.hosts);
    const body = stringifyExact(delivery.envelope);
    const outcome: PostOutcome = problem
      ? { status: null, timeMs: 0, error: `not sent: ${problem}` }
      : await this.#send({
          url: endpoint.url,
          body,
          headers: { ...endpoint.headers, "x-voucherify-signature": signBody(body, endpoint.secret) },
          timeoutMs: this.settings.timeoutMs,
          signal: this.#abort.signal,
        });
    recordOutcome(delivery, outcome);
    this.#changed(project.id);
  }

  #fail({ project, delivery }: Job, error: string): void {
    delivery.status = "failed";
    delivery.error = error;
    this.#changed(project.id);
  }

  #changed(projectId: string): void {
    try {
      this.#told?.(projectId);
      this.onDeliveryChange?.(projectId);
    } catch {
      // A listener's failure is its own: deliveries go on.
    }
  }
}
