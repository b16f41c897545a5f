import type { Request, RequestHandler } from "express";
import { authenticate, type Credentials } from "../domain/auth/authenticate.js";
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

/** Authenticates the request for one operation of the policy table; the handler reads the result with getAuth. */
export function requireAuth(registry: ProjectRegistry, operation: OperationName): RequestHandler {
  const policy = POLICIES[operation];
  return (req, res, next) => {
    setAuth(res, authenticate(registry, credentialsOf(req), policy));
    next();
  };
}
