import type { Request } from "express";
import type { Credentials, PresentedToken } from "../../domain/auth/authenticate.js";

/**
 * Reading credentials off a request: the headers, and the access token out of `Authorization: Bearer <token>`
 * (or bare in X-Service-OAuth, which the service also reads for location retrieval). The domain gets the token
 * already read, or word that the header was malformed, and decides in its own order what that means.
 */

/** The token of a `Bearer <token>` header; with `bareAllowed` (X-Service-OAuth), a lone token too. */
function readBearer(header: string | undefined, bareAllowed: boolean): PresentedToken | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(header)?.[1];
  if (match) return { value: match };
  if (bareAllowed && /^\S+$/.test(header.trim())) return { value: header.trim() };
  return { malformed: true };
}

/** The credential headers as a client sends them, for callers (and tests) that hold headers, not a request. */
export interface CredentialHeaders {
  appId?: string | undefined;
  appToken?: string | undefined;
  /** The raw Authorization header. */
  authorization?: string | undefined;
  /** The raw X-Service-OAuth header. */
  serviceOAuth?: string | undefined;
  ip?: string | undefined;
}

export function credentialsFromHeaders(headers: CredentialHeaders): Credentials {
  const credentials: Credentials = { appId: headers.appId, appToken: headers.appToken, ip: headers.ip };
  const bearer = readBearer(headers.authorization, false);
  const serviceOAuth = readBearer(headers.serviceOAuth, true);
  if (bearer) credentials.bearer = bearer;
  if (serviceOAuth) credentials.serviceOAuth = serviceOAuth;
  return credentials;
}

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
  readonly bearer: PresentedToken | undefined;
  readonly serviceOAuth: PresentedToken | undefined;
  appTokenDigest?: Buffer;
  attribution: Credentials["attribution"] = undefined;
  readonly #req: Request;

  constructor(req: Request) {
    this.#req = req;
    this.appId = header(req, "x-app-id");
    this.appToken = header(req, "x-app-token");
    this.bearer = readBearer(header(req, "authorization"), false);
    this.serviceOAuth = readBearer(header(req, "x-service-oauth"), true);
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
