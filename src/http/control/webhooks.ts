import { z } from "zod";
import { newWebhookSchema, webhookSchema } from "../../domain/webhooks/endpoint.js";
import { DELIVERY_STATUSES } from "../../domain/webhooks/outbox.js";
import { listSchema } from "./answers.js";
import { webhookDeliveryAnswer } from "./answers-webhooks.js";
import { type ControlRoute, row } from "./route-table.js";
import { listOf } from "./shapes.js";

const deliveriesQuery = z.strictObject({
  type: z.string().min(1).optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  webhook_id: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(1_000_000).optional(),
});

const WEBHOOKS = "/projects/{projectId}/webhooks";
const DELIVERIES = `${WEBHOOKS}/deliveries`;

/**
 * Webhooks (the webhooks guide): a project's endpoints, and its outbox of deliveries (what was sent where and how
 * the receiver answered, or what would have been sent when no endpoint wanted it). Endpoints are project data (a
 * store: fixtures, state documents, persistence); the outbox lives in memory only.
 */
export const webhookRoutes: readonly ControlRoute[] = [
  // Before {webhookId}, which would otherwise take "deliveries" for an endpoint's id.
  row({
    method: "GET",
    path: DELIVERIES,
    tag: "webhooks",
    summary: "The project's webhook deliveries (its outbox), oldest first",
    description: "`total` counts every delivery that matches; `limit` shows only the newest of them.",
    query: deliveriesQuery,
    queryHelp: {
      type: "Only deliveries of this event type",
      status: "Only deliveries in this status",
      webhook_id: "Only deliveries to this endpoint",
      limit: "Only the newest this many",
    },
    output: listSchema("deliveries", webhookDeliveryAnswer),
    errors: { 400: ["invalid_payload"] },
    handle: ({ query, project }) => {
      const { limit, ...filter } = query;
      const matching = project.outbox.list(filter);
      const shown = limit === undefined ? matching : matching.slice(-limit);
      return listOf("deliveries", shown, matching.length);
    },
  }),
  row({
    method: "DELETE",
    path: DELIVERIES,
    tag: "webhooks",
    summary: "Empty the outbox",
    status: 204,
    handle: ({ project }) => project.outbox.clear(),
  }),
  row({
    method: "POST",
    path: `${DELIVERIES}/{deliveryId}/resend`,
    tag: "webhooks",
    summary: "Send a delivery again to its endpoint",
    description:
      "Queued again with the same envelope, signed with the endpoint's secret as it is now. 409 when the " +
      "delivery was not_sent (no endpoint), is pending, or its endpoint has been deleted.",
    status: 202,
    output: webhookDeliveryAnswer,
    errors: { 409: ["conflict"] },
    handle: ({ deps: { registry }, params, project }) =>
      registry.dispatcher.resend(project, String(params.deliveryId)),
  }),
  row({
    method: "GET",
    path: WEBHOOKS,
    tag: "webhooks",
    summary: "The project's webhook endpoints",
    output: listSchema("webhooks", webhookSchema),
    handle: ({ project }) => listOf("webhooks", project.webhooks.list()),
  }),
  row({
    method: "POST",
    path: WEBHOOKS,
    tag: "webhooks",
    summary: "Add a webhook endpoint",
    description:
      "The secret is generated when absent. 400 for a URL that is not http(s) or names a host other than " +
      "loopback (unless LOYALTY_MOCK_WEBHOOK_HOSTS allows it); 409 limit_exceeded when the project holds LOYALTY_MOCK_WEBHOOK_LIMIT endpoints.",
    body: newWebhookSchema,
    status: 201,
    output: webhookSchema,
    errors: { 409: ["limit_exceeded"] },
    handle: ({ deps: { registry }, body, project }) => {
      return project.webhooks.create(body, {
        projectId: project.id,
        nowIso: project.clock.iso(),
        limit: registry.defaults.caps.webhooksPerProject,
        hosts: registry.dispatcher.settings.hosts,
        ids: project.ids,
      });
    },
  }),
  row({
    method: "DELETE",
    path: `${WEBHOOKS}/{webhookId}`,
    tag: "webhooks",
    summary: "Delete a webhook endpoint",
    status: 204,
    handle: ({ params, project }) => {
      project.webhooks.remove(String(params.webhookId));
    },
  }),
];
