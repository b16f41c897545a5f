import { z } from "zod";
import { customerInputSchema } from "../../domain/customers/customer-input.js";
import { eventResponse, trackEvent } from "../../domain/events/track-event.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { metadata } from "../../domain/shared/schema-parts.js";
import { requireAuth } from "../authenticate.js";
import { jsonBody } from "../body.js";
import { getAuth, getInput } from "../context.js";
import { route } from "../routes.js";
import { validate } from "../validate.js";
import type { Mount } from "./router.js";

const optionalText = z.string().nullable().optional();

export const trackEventSchema = z.object({
  params: z.object({}),
  body: z.object({
    event: z.string().min(1).max(300),
    customer: customerInputSchema,
    referral: z.object({ code: optionalText, referrer_id: optionalText }).nullable().optional(),
    loyalty: z.object({ code: optionalText }).nullable().optional(),
    metadata: metadata.nullable().optional(),
  }),
});

/** POST /v1/events: records a custom event and answers with the event object. */
export function mountEvents({ router, prefix }: Mount, registry: ProjectRegistry, bodyLimit: number): void {
  route(router, `${prefix}/events`, {
    post: [
      requireAuth(registry, "trackEvent"),
      ...jsonBody(bodyLimit),
      validate(trackEventSchema),
      (_req, res) => {
        const { body } = getInput<z.output<typeof trackEventSchema>>(res);
        const { event, customer } = trackEvent(getAuth(res).project, body);
        res.json(eventResponse(event, customer));
      },
    ],
  });
}
