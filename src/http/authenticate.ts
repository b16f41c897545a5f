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

/**
 * A request's credentials. The address is read only when an IP allow-list asks for it: req.ip works it out (trust
 * proxy) on every read.
 */
class RequestCredentials implements Credentials {
  readonly appId: string | undefined;
  readonly appToken: string | undefined;
  readonly authorization: string | undefined;
  readonly serviceOAuth: string | undefined;
  appTokenDigest?: Buffer;
  readonly #req: Request;

  constructor(req: Request) {
    this.#req = req;
    this.appId = header(req, "x-app-id");
    this.appToken = header(req, "x-app-token");
    this.authorization = header(req, "authorization");
    this.serviceOAuth = header(req, "x-service-oauth");
  }

  get ip(): string | undefined {
    return this.#req.ip;
  }
}

/**
 * Each request's credentials, read once: the traffic middleware and requireAuth both need them. Kept on the
 * request itself, which lives exactly as long as they are needed.
 */
const CREDENTIALS = Symbol("credentials");
type WithCredentials = Request & { [CREDENTIALS]?: Credentials };

export function credentialsOf(req: Request): Credentials {
  let credentials = (req as WithCredentials)[CREDENTIALS];
  if (credentials === undefined) {
    credentials = new RequestCredentials(req);
    (req as WithCredentials)[CREDENTIALS] = credentials;
  }
  return credentials;
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
