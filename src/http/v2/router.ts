import { z } from "zod";
import { deleteIncentive } from "../../domain/incentives/delete-incentive.js";
import { hexId } from "../../domain/shared/schema-parts.js";
import { createTier, createTierBodySchema } from "../../domain/tiers/create-tier.js";
import { requireAuth } from "../authenticate.js";
import { jsonBody } from "../body.js";
import { getAuth, getInput } from "../context.js";
import { route } from "../routes.js";
import type { Mount, RouterDeps } from "../v1/router.js";
import { validate } from "../validate.js";

/** A tier structure id is not checked for shape: any unknown id is the 404 of the structure (FIDELITY order). */
const createTierInput = z.object({
  params: z.object({ id: z.string() }),
  body: createTierBodySchema,
});

/** The incentive id must match the contract's pattern before it is looked up (400, not 404). */
const deleteIncentiveInput = z.object({ params: z.object({ id: hexId("linc") }) });

/**
 * The Loyalty v2 operations, over the same domain layer as v1. Each handler takes the validated input, calls the
 * domain and sends what it returns; refusals are thrown as ApiErrors for the one error handler.
 */
export function mountV2({ router, prefix }: Mount, { registry, bodyLimit }: RouterDeps): void {
  route(router, `${prefix}/loyalties/tier-structures/:id/tiers`, {
    post: [
      requireAuth(registry, "createTier"),
      ...jsonBody(bodyLimit),
      validate(createTierInput),
      (_req, res) => {
        const { params, body } = getInput<z.output<typeof createTierInput>>(res);
        res.json(createTier(getAuth(res).project, params.id, body));
      },
    ],
  });

  route(router, `${prefix}/loyalties/incentives/:id`, {
    // The spec says DELETE has no body; one sent anyway is read like any JSON body (415 in another type) and
    // otherwise ignored, as FIDELITY.md's "Wrong content type" rule asks of every operation.
    delete: [
      requireAuth(registry, "deleteIncentive"),
      ...jsonBody(bodyLimit),
      validate(deleteIncentiveInput),
      (_req, res) => {
        const { params } = getInput<z.output<typeof deleteIncentiveInput>>(res);
        res.json(deleteIncentive(getAuth(res).project, params.id));
      },
    ],
  });
}
