/**
 * Which credentials each operation accepts (FIDELITY.md, "Authentication"). One table, read by the HTTP layer and
 * testable without a request.
 */
export interface AuthPolicy {
  operation: string;
  /** Tokens are accepted at all; the token endpoint itself takes the key pair only. */
  acceptsToken: boolean;
  /** Location retrieval also reads the token from X-Service-OAuth. */
  acceptsServiceOAuth: boolean;
  /** v2 operations: the key pair and the token are both required unless the project relaxes it. */
  v2: boolean;
  /** A token (or a key's permissions) must hold one of these scope values. */
  scopes: readonly string[];
}

function policy(operation: string, scopes: readonly string[], extra: Partial<AuthPolicy> = {}): AuthPolicy {
  return { operation, acceptsToken: true, acceptsServiceOAuth: false, v2: false, scopes, ...extra };
}

export const POLICIES = {
  generateToken: policy("POST /v1/oauth/token", [], { acceptsToken: false }),
  addMember: policy("POST /v1/loyalties/{campaignId}/members", ["api", "loyalties"]),
  getLocation: policy("GET /v1/locations/{locationId}", ["api", "locations"], { acceptsServiceOAuth: true }),
  trackEvent: policy("POST /v1/events", ["api", "events"]),
  createTier: policy("POST /v2/loyalties/tier-structures/{id}/tiers", ["api", "loyalties"], { v2: true }),
  deleteIncentive: policy("DELETE /v2/loyalties/incentives/{id}", ["api", "loyalties"], { v2: true }),
} as const satisfies Record<string, AuthPolicy>;

export type OperationName = keyof typeof POLICIES;
