import { Router } from "express";
import type { RouterDeps } from "../v1/router.js";

/**
 * The Loyalty v2 operations (tier creation, incentive deletion) mount here, over the same domain layer as v1.
 * Their authentication rule is already in the policy table (domain/auth/policies.ts).
 */
export function v2Router(_deps: RouterDeps): Router {
  return Router();
}
