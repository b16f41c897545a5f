import type { Request, RequestHandler } from "express";
import {
  type AuthContext,
  authenticate,
  type Credentials,
  stillAuthenticated,
} from "../domain/auth/authenticate.js";
import { type OperationName, POLICIES } from "../domain/auth/policies.js";
import type { ProjectRegistry } from "../domain/projects/registry.js";
import { setAuth } from "./context.js";

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

export function credentialsOf(req: Request): Credentials {
  return {
    appId: header(req, "x-app-id"),
    appToken: header(req, "x-app-token"),
    authorization: header(req, "authorization"),
    serviceOAuth: header(req, "x-service-oauth"),
    ip: req.ip,
  };
}

/**
 * Authenticates the request for one operation of the policy table; the handler reads the result with getAuth.
 * Checked first (the service's order), and once more when the handler runs if the world changed while the body
 * was read: a request is then judged entirely after the control call, never half in the old world (a token
 * issued into a project a reset threw away, a card assigned in a state an import replaced, a token made by a
 * key deleted meanwhile).
 */
export function requireAuth(registry: ProjectRegistry, operation: OperationName): RequestHandler {
  const policy = POLICIES[operation];
  return (req, res, next) => {
    const credentials = credentialsOf(req);
    const recheck = (auth: AuthContext) =>
      stillAuthenticated(registry, auth) ? auth : authenticate(registry, credentials, policy);
    setAuth(res, authenticate(registry, credentials, policy), recheck);
    next();
  };
}
