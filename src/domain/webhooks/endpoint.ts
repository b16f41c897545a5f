import { z } from "zod";
import { type IdSource, randomIds } from "../../platform/ids.js";
import { CAP_VARIABLES } from "../caps.js";
import { invalidPayload, limitExceeded } from "../errors.js";
import { RecordStore } from "../record-store.js";
import { idWithPrefix, timestamp } from "../shared/schema-parts.js";
import { type AllowedHosts, targetProblem } from "./target.js";

/** An event type as the envelope writes it: dot-separated lowercase words (`voucher.loyalty_card.points_added`). */
const eventType = z
  .string()
  .refine(
    (type) => /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/.test(type),
    "must be an event type such as voucher.published",
  );

/** What the sender writes itself: a custom header cannot replace them (or the request would not be the vendor's). */
const RESERVED_HEADERS = new Set([
  "content-type",
  "content-length",
  "transfer-encoding",
  "connection",
  "host",
  "x-voucherify-signature",
]);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

// No CR or LF: a value must not be able to start another header.
const headerValue = z
  .string()
  .max(8192)
  .refine((value) => !/[\r\n]/.test(value), "must not contain line breaks");

/** Custom headers, checked name by name so that a refusal names the header and why. */
const customHeaders = z.record(z.string(), headerValue).superRefine((headers, ctx) => {
  for (const name of Object.keys(headers)) {
    if (!HEADER_NAME.test(name))
      ctx.addIssue({ code: "custom", path: [name], message: "is not an HTTP header name" });
    else if (RESERVED_HEADERS.has(name.toLowerCase()))
      ctx.addIssue({ code: "custom", path: [name], message: "is set by the sender and cannot be replaced" });
  }
});

/**
 * A project's webhook endpoint (project settings, "Webhooks"): where notifications go, which event types it wants
 * (none listed: all), whether it is active, the headers added to each request and the secret that signs them.
 * The real service has one secret per project; here each endpoint has its own (give several the same secret to
 * get the project-wide behaviour). The same shape in fixtures (`webhooks.json`), state documents and the control API.
 */
export const webhookSchema = z.strictObject({
  id: idWithPrefix("wh"),
  object: z.literal("webhook").default("webhook"),
  url: z.string().min(1).max(2048),
  events: z.array(eventType).max(200).default([]),
  active: z.boolean().default(true),
  headers: customHeaders.default({}),
  secret: z.string().min(1).max(500),
  created_at: timestamp,
});

export type Webhook = z.output<typeof webhookSchema>;

/** What POST /__mock/projects/{id}/webhooks takes: the id, the time and (when absent) the secret are made. */
export const newWebhookSchema = webhookSchema
  .pick({ url: true, events: true, active: true, headers: true })
  .extend({ secret: webhookSchema.shape.secret.optional() });

export type NewWebhook = z.output<typeof newWebhookSchema>;

/** Whether an endpoint takes notifications of this type now. */
export function wants(endpoint: Webhook, type: string): boolean {
  return endpoint.active && (endpoint.events.length === 0 || endpoint.events.includes(type));
}

/** A project's webhook endpoints, in the order they were added. */
export class WebhookStore extends RecordStore<Webhook> {
  /**
   * Adds an endpoint within the project's cap; a target the server does not send to is 400, a full project 409,
   * and either changes nothing.
   */
  create(
    input: NewWebhook,
    options: { projectId: string; nowIso: string; limit: number; hosts: AllowedHosts; ids?: IdSource },
  ): Webhook {
    const ids = options.ids ?? randomIds;
    const problem = targetProblem(input.url, options.hosts);
    if (problem) throw invalidPayload(`Property .url ${problem}`);
    if (this.size >= options.limit)
      throw limitExceeded(
        `Project ${options.projectId}`,
        "webhook endpoints",
        options.limit,
        CAP_VARIABLES.webhooksPerProject,
      );
    return this.put({
      id: ids.v2Id("wh"),
      object: "webhook",
      url: input.url,
      events: [...new Set(input.events)],
      active: input.active,
      headers: input.headers,
      secret: input.secret ?? ids.secretToken(24),
      created_at: options.nowIso,
    });
  }
}
