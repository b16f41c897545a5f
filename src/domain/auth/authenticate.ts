import ipaddr from "ipaddr.js";
import { forbidden, unauthorized } from "../errors.js";
import type { Project } from "../projects/project.js";
import type { ProjectRegistry } from "../projects/registry.js";
import type { ApiKey } from "./api-key.js";
import { keySecretMatches } from "./secrets.js";
import { type TokenRecord, tokenState } from "./token-store.js";

/** An access token as the transport read it from a header, or word that the header did not hold one. */
export type PresentedToken = { value: string } | { malformed: true };

/** The credentials a request carried, as the HTTP layer read them (http/operations/credentials.ts), and where it came from. */
export interface Credentials {
  appId?: string | undefined;
  appToken?: string | undefined;
  /** From the Authorization header. */
  bearer?: PresentedToken | undefined;
  /** From the X-Service-OAuth header. */
  serviceOAuth?: PresentedToken | undefined;
  ip?: string | undefined;
  /** The X-App-Token's digest, filled in by the first comparison (see secrets.ts), so a request hashes it once. */
  appTokenDigest?: Buffer;
  /** The project the request is about, filled in by attribute() (attribution.ts) when first asked; null: none. */
  attribution?: { project: Project; verified: boolean } | null | undefined;
}

/**
 * Which credentials an operation accepts (docs/reference/authentication.md, "What each operation accepts"); each row of the HTTP layer's operation
 * table carries one.
 */
export interface AuthPolicy {
  /** Tokens are accepted at all; the token endpoint itself takes the key pair only. */
  acceptsToken: boolean;
  /** Location retrieval also reads the token from X-Service-OAuth. */
  acceptsServiceOAuth: boolean;
  /** v2 operations: the key pair and the token are both required unless the project relaxes it. */
  v2: boolean;
  /** A token (or a key's permissions) must hold one of these scope values. */
  scopes: readonly string[];
}

export interface AuthContext {
  project: Project;
  key?: ApiKey;
  token?: TokenRecord;
}

const INVALID_KEY_PAIR = "Invalid X-App-Id or X-App-Token";

function verifyKeyPair(registry: ProjectRegistry, appId: string, credentials: Credentials) {
  const project = registry.projectForAppId(appId);
  const key = project?.apiKeys.find(appId);
  const matches = keySecretMatches(key, credentials);
  // Unknown id, wrong secret and blocked key answer alike: the service never tells whether an app id exists.
  if (!project || !key || !matches || key.status !== "ACTIVE") throw unauthorized(INVALID_KEY_PAIR);
  return { project, key };
}

function tokenValue(presented: PresentedToken): string {
  if ("value" in presented) return presented.value;
  throw unauthorized("The access token must be sent as 'Bearer <token>'");
}

function verifyToken(registry: ProjectRegistry, accessToken: string) {
  const project = registry.projectForToken(accessToken);
  const token = project?.tokens.find(accessToken);
  if (!project || !token) throw unauthorized("Invalid access token");
  const state = tokenState(token, project.clock.now());
  if (state === "expired") throw unauthorized("The access token has expired");
  if (state === "revoked")
    throw unauthorized("The access token is no longer valid: its API key was blocked or deleted");
  return { project, token };
}

/** A CIDR range, or a single address (bits -1) kept with its text to compare against. */
type Range = [ipaddr.IPv4 | ipaddr.IPv6, number, string];

/**
 * Allow-lists parsed once per list rather than on every request. Lists are never changed in place (a key or token
 * gets a new array), so a list's parse stays valid for as long as the list lives.
 */
const parsedLists = new WeakMap<readonly string[], Range[]>();

function parsedList(allowlist: readonly string[]): Range[] {
  let ranges = parsedLists.get(allowlist);
  if (ranges === undefined) {
    ranges = allowlist.map((entry): Range => {
      const [range, bits] = entry.includes("/") ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), -1];
      return [range, bits, range.toString()];
    });
    parsedLists.set(allowlist, ranges);
  }
  return ranges;
}

function ipAllowed(ip: string | undefined, allowlist: readonly string[]): boolean {
  if (allowlist.length === 0) return true;
  if (!ip || !ipaddr.isValid(ip)) return false;
  const address = ipaddr.process(ip);
  const text = address.toString();
  return parsedList(allowlist).some(([range, bits, rangeText]) => {
    if (range.kind() !== address.kind()) return false;
    return bits === -1 ? rangeText === text : address.match([range, bits] as never);
  });
}

function missingCredentials(policy: AuthPolicy, strictV2: boolean): string {
  if (!policy.acceptsToken) return "Missing X-App-Id and X-App-Token headers";
  if (strictV2)
    return "Missing credentials: v2 operations need 'Authorization: Bearer <token>' and the X-App-Id and X-App-Token headers";
  const tokenHeader = policy.acceptsServiceOAuth ? "Authorization or X-Service-OAuth" : "Authorization";
  return `Missing credentials: send X-App-Id and X-App-Token headers, or an OAuth token in the ${tokenHeader} header`;
}

type Pair = { project: Project; key: ApiKey };
type Bearer = { project: Project; token: TokenRecord };

/** The key pair the request carries, verified; undefined without one. Half a pair is refused. */
function presentedPair(registry: ProjectRegistry, credentials: Credentials): Pair | undefined {
  const { appId, appToken } = credentials;
  if (appId !== undefined && appToken === undefined) throw unauthorized("Missing X-App-Token header");
  if (appId === undefined && appToken !== undefined) throw unauthorized("Missing X-App-Id header");
  return appId !== undefined && appToken !== undefined
    ? verifyKeyPair(registry, appId, credentials)
    : undefined;
}

/** The token the request carries in a header the operation reads, verified; undefined without one. */
function presentedBearer(
  registry: ProjectRegistry,
  credentials: Credentials,
  policy: AuthPolicy,
): Bearer | undefined {
  if (!policy.acceptsToken) return undefined;
  let header: PresentedToken | undefined = credentials.bearer;
  if (header === undefined && policy.acceptsServiceOAuth) header = credentials.serviceOAuth;
  return header !== undefined ? verifyToken(registry, tokenValue(header)) : undefined;
}

/** A v2 operation, in a project whose v2 mode is strict, takes the token and the key pair together. */
function checkStrictV2(
  registry: ProjectRegistry,
  project: Project,
  policy: AuthPolicy,
  pair?: Pair,
  bearer?: Bearer,
) {
  if (!policy.v2 || project.effectiveSettings(registry.defaults).v2AuthMode !== "strict") return;
  if (!bearer)
    throw unauthorized("Missing Authorization header: v2 operations need 'Bearer <token>' and the key pair");
  if (!pair)
    throw unauthorized("Missing X-App-Id and X-App-Token headers: v2 operations need them with the token");
}

/** The key's and the token's IP allow-lists: the address must be on each list that has entries. */
function checkAddress(credentials: Credentials, pair?: Pair, bearer?: Bearer): void {
  const keyList = pair?.key.ip_allowlist ?? [];
  const tokenList = bearer?.token.ipAllowlist ?? [];
  // The address is read only when a list asks for it: working it out (trust proxy) is not free.
  if (keyList.length === 0 && tokenList.length === 0) return;
  if (!ipAllowed(credentials.ip, keyList) || !ipAllowed(credentials.ip, tokenList))
    throw forbidden(
      `Requests from ${credentials.ip ?? "an unknown address"} are not allowed for this API key`,
    );
}

/** The token's scope and the key's permissions must each hold one of the operation's scopes. */
function checkScopes(policy: AuthPolicy, pair?: Pair, bearer?: Bearer): void {
  if (policy.scopes.length === 0) return;
  if (bearer && !bearer.token.scope.some((scope) => policy.scopes.includes(scope)))
    throw forbidden(
      `The access token's scope (${bearer.token.scope.join(" ")}) does not allow this call; it needs ${policy.scopes.join(" or ")}`,
    );
  if (pair && !pair.key.permissions.some((scope) => policy.scopes.includes(scope)))
    throw forbidden(
      `The API key's permissions do not allow this call; it needs ${policy.scopes.join(" or ")}`,
    );
}

/**
 * Decides who is calling, or refuses with the service's 401/403. Every credential the request carries must be
 * valid and all must belong to one project; then the operation's own rule (v2 strictness, IP allow-list, scope).
 */
export function authenticate(
  registry: ProjectRegistry,
  credentials: Credentials,
  policy: AuthPolicy,
): AuthContext {
  const pair = presentedPair(registry, credentials);
  const bearer = presentedBearer(registry, credentials, policy);
  const project = pair?.project ?? bearer?.project;
  // With no credential there is no project yet, so the server-wide v2 mode decides what to ask for.
  if (!project)
    throw unauthorized(missingCredentials(policy, policy.v2 && registry.defaults.v2AuthMode === "strict"));
  if (pair && bearer && pair.project !== bearer.project)
    throw unauthorized("The access token and the X-App-Id belong to different projects");
  checkStrictV2(registry, project, policy, pair, bearer);
  checkAddress(credentials, pair, bearer);
  checkScopes(policy, pair, bearer);
  const context: AuthContext = { project };
  if (pair) context.key = pair.key;
  if (bearer) context.token = bearer.token;
  return context;
}

function installed(registry: ProjectRegistry, project: Project): boolean {
  try {
    return registry.get(project.id) === project;
  } catch {
    // Removed since: registry.get throws its 404.
    return false;
  }
}

/**
 * Whether an authentication still holds: its project is the one installed (not reset, replaced by a state
 * import or removed since), its key is still the project's and active, its token still the project's and valid.
 * A request is authenticated before its body is read; a control call may land in between.
 */
export function stillAuthenticated(registry: ProjectRegistry, auth: AuthContext): boolean {
  const { project, key, token } = auth;
  if (!installed(registry, project)) return false;
  if (key && (project.apiKeys.find(key.app_id) !== key || key.status !== "ACTIVE")) return false;
  if (
    token &&
    (project.tokens.find(token.accessToken) !== token || tokenState(token, project.clock.now()) !== "valid")
  )
    return false;
  return true;
}
