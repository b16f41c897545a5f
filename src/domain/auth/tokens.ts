import { invalidGrantType, invalidScope, tokenLimitReached } from "../errors.js";
import type { Project } from "../projects/project.js";
import type { ProjectRegistry } from "../projects/registry.js";
import { isScope } from "../scopes.js";
import type { ApiKey } from "./api-key.js";
import { TOKEN_LIFETIME_SECONDS, type TokenRecord } from "./token-store.js";

/** The OAuth token object of the spec. */
export interface OAuthToken {
  access_token: string;
  client_id: string;
  expires_at: number;
  expires_in: number;
  scope: string;
  token_type: "Bearer";
}

/** The form fields as they arrived: strings, or arrays when a field was repeated, or absent. */
export interface TokenRequest {
  grant_type?: unknown;
  scope?: unknown;
}

/**
 * The scope values asked for, split on spaces as the spec says. A comma is no separator, so `vouchers,campaigns`
 * is one value and refused whole. A value outside the spec's list or outside the key's permissions is refused.
 */
function grantedScopes(scope: unknown, key: ApiKey): string[] {
  if (typeof scope !== "string" || scope.trim() === "") throw invalidScope([]);
  const values = [...new Set(scope.split(" ").filter((value) => value !== ""))];
  const offending = values.filter((value) => !isScope(value) || !key.permissions.includes(value));
  if (offending.length > 0) throw invalidScope(offending);
  return values;
}

/**
 * POST /v1/oauth/token for an authenticated key: grant_type first, then scope, then the per-project cap of live
 * tokens. A refused request issues nothing.
 */
export function issueToken(
  registry: ProjectRegistry,
  project: Project,
  key: ApiKey,
  request: TokenRequest,
): OAuthToken {
  if (request.grant_type !== "client_credentials") throw invalidGrantType();
  const scope = grantedScopes(request.scope, key);

  const now = project.clock.now();
  const limit = project.effectiveSettings(registry.defaults).tokenLimit;
  // Below the cap there is room whatever has expired; only a full store is worth sweeping, so issuing a token
  // costs a scan of the store only when the cap is in sight, and the store never outgrows the cap.
  if (project.tokens.size >= limit) registry.unindexTokens(project.tokens.prune(now));
  if (project.tokens.size >= limit) throw tokenLimitReached(limit);

  // A seeded stream starts again at a reset, so it may come back to a token another project took in meanwhile (a
  // state put there with it): that one is drawn past, as two projects never share a token.
  let accessToken = project.ids.secretToken();
  while (registry.projectForToken(accessToken) !== undefined) accessToken = project.ids.secretToken();
  const token: TokenRecord = {
    accessToken,
    appId: key.app_id,
    clientId: key.client_id,
    scope,
    permissions: [...key.permissions],
    ipAllowlist: [...key.ip_allowlist],
    issuedAtMs: now,
    expiresAtMs: now + TOKEN_LIFETIME_SECONDS * 1000,
    revokeAtMs: null,
  };
  project.tokens.add(token);
  registry.indexToken(token.accessToken, project);

  return {
    access_token: token.accessToken,
    client_id: token.clientId,
    expires_at: Math.floor(token.expiresAtMs / 1000),
    expires_in: TOKEN_LIFETIME_SECONDS,
    scope: scope.join(" "),
    token_type: "Bearer",
  };
}
