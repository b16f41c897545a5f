import { Router } from "express";
import { z } from "zod";
import { createTier, createTierBodySchema } from "../../domain/tiers/create-tier.js";
import { requireAuth } from "../authenticate.js";
import { jsonBody } from "../body.js";
import { getAuth, getInput } from "../context.js";
import { route } from "../routes.js";
import type { RouterDeps } from "../v1/router.js";
import { validate } from "../validate.js";

/** A tier structure id is not checked for shape: any unknown id is the 404 of the structure (FIDELITY order). */
const createTierInput = z.object({
  params: z.object({ id: z.string() }),
  body: createTierBodySchema,
});

/**
 * The Loyalty v2 operations, over the same domain layer as v1. Each handler takes the validated input, calls the
 * domain and sends what it returns; refusals are thrown as ApiErrors for the one error handler.
 */
export function v2Router({ registry, bodyLimit }: RouterDeps): Router {
  const router = Router();

  route(router, "/loyalties/tier-structures/:id/tiers", {
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

  return router;
}
