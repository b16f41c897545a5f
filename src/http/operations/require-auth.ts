import type { RequestHandler } from "express";
import {
  type AuthContext,
  type AuthPolicy,
  authenticate,
  stillAuthenticated,
} from "../../domain/auth/authenticate.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { setAuth } from "../context.js";
import { credentialsOf } from "./credentials.js";

/**
 * Authenticates the request for one row of the operation table; the handler reads the result with recheckedAuth.
 * Checked first (the service's order), and once more when the handler runs if the world changed while the body
 * was read: a request is then judged entirely after the control call, never half in the old world (a token
 * issued into a project a reset threw away, a card assigned in a state an import replaced, a token made by a
 * key deleted meanwhile).
 */
export function requireAuth(registry: ProjectRegistry, policy: AuthPolicy): RequestHandler {
  return (req, res, next) => {
    const credentials = credentialsOf(req);
    const recheck = (auth: AuthContext) =>
      stillAuthenticated(registry, auth) ? auth : authenticate(registry, credentials, policy);
    setAuth(res, authenticate(registry, credentials, policy), recheck);
    next();
  };
}
