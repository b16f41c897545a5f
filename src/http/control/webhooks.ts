import type { Response, Router } from "express";
import { z } from "zod";
import { newWebhookSchema } from "../../domain/webhooks/endpoint.js";
import { DELIVERY_STATUSES } from "../../domain/webhooks/outbox.js";
import { jsonBody } from "../body.js";
import { getInput } from "../context.js";
import { route } from "../route.js";
import type { ControlDeps } from "./deps.js";
import { controlInput } from "./input.js";
import { created, listOf } from "./shapes.js";

const P = z.object({ projectId: z.string() });

const newWebhook = z.object({ params: P, body: newWebhookSchema });

const deliveriesQuery = z.object({
  params: P,
  query: z.strictObject({
    type: z.string().min(1).optional(),
    status: z.enum(DELIVERY_STATUSES).optional(),
    webhook_id: z.string().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(1_000_000).optional(),
  }),
});

/** A control answer without a body. */
const noContent = (res: Response) => res.status(204).end();

/**
 * Webhooks (README "Webhooks"): a project's endpoints, and its outbox of deliveries (what was sent where and how
 * the receiver answered, or what would have been sent when no endpoint wanted it). Endpoints are project data (a
 * store: fixtures, state documents, persistence); the outbox lives in memory only.
 */
export function webhookRoutes(router: Router, { registry, bodyLimit }: ControlDeps): void {
  // Before /webhooks/:webhookId, which would otherwise take "deliveries" for an endpoint's id.
  route(router, "/projects/:projectId/webhooks/deliveries", {
    get: [
      controlInput(deliveriesQuery),
      (_req, res) => {
        const { params, query } = getInput<z.output<typeof deliveriesQuery>>(res);
        const { limit, ...filter } = query;
        const matching = registry.get(params.projectId).outbox.list(filter);
        const shown = limit === undefined ? matching : matching.slice(-limit);
        res.json(listOf("deliveries", shown, matching.length));
      },
    ],
    delete: [
      (req, res) => {
        registry.get(String(req.params.projectId)).outbox.clear();
        noContent(res);
      },
    ],
  });

  route(router, "/projects/:projectId/webhooks/deliveries/:deliveryId/resend", {
    post: [
      (req, res) => {
        const project = registry.get(String(req.params.projectId));
        res.status(202).json(registry.dispatcher.resend(project, String(req.params.deliveryId)));
      },
    ],
  });

  route(router, "/projects/:projectId/webhooks", {
    get: [
      (req, res) => {
        res.json(listOf("webhooks", registry.get(String(req.params.projectId)).webhooks.list()));
      },
    ],
    post: [
      ...jsonBody(bodyLimit),
      controlInput(newWebhook),
      (_req, res) => {
        const { params, body } = getInput<z.output<typeof newWebhook>>(res);
        const project = registry.get(params.projectId);
        const endpoint = project.webhooks.create(body, {
          nowIso: project.clock.iso(),
          limit: registry.defaults.caps.webhooksPerProject,
          hosts: registry.dispatcher.settings.hosts,
        });
        created(res, endpoint);
      },
    ],
  });

  route(router, "/projects/:projectId/webhooks/:webhookId", {
    delete: [
      (req, res) => {
        const project = registry.get(String(req.params.projectId));
        const id = String(req.params.webhookId);
        project.webhooks.get(id);
        project.webhooks.delete(id);
        noContent(res);
      },
    ],
  });
}
