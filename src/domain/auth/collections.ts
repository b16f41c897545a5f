import { collection } from "../collection.js";
import { seeded } from "../record-store.js";
import { type ApiKey, ApiKeyStore, apiKeySchema, toApiKey } from "./api-key.js";
import { type TokenRecord, TokenStore, tokenFromInput, tokenSchema } from "./token-store.js";

function keyDocument({ id: _id, ...key }: ApiKey) {
  return key;
}

function tokenDocument(token: TokenRecord) {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    access_token: token.accessToken,
    app_id: token.appId,
    client_id: token.clientId,
    scope: [...token.scope],
    permissions: [...token.permissions],
    ip_allowlist: [...token.ipAllowlist],
    issued_at: iso(token.issuedAtMs),
    expires_at: iso(token.expiresAtMs),
    revoke_at: token.revokeAtMs === null ? null : iso(token.revokeAtMs),
  };
}

/** A project's API keys, by app id: stored with their client id filled in and the app id as their id. */
export const apiKeyCollection = collection({
  name: "api_keys",
  schema: apiKeySchema,
  resourceType: "api_key",
  label: "API key",
  key: "app_id",
  store: (keys, { resourceType }) => seeded(new ApiKeyStore(resourceType), keys, toApiKey),
  document: (store) => ({
    get: (key) => {
      const stored = store.stored(key);
      return stored && keyDocument(stored);
    },
    *entries() {
      for (const stored of store.storedValues()) yield [stored.id, keyDocument(stored)];
    },
  }),
});

/** A project's OAuth tokens, by access token: kept with their times as epoch milliseconds. */
export const tokenCollection = collection({
  name: "tokens",
  schema: tokenSchema,
  resourceType: "token",
  label: "token",
  key: "access_token",
  store: (tokens) => seeded(new TokenStore(), tokens, tokenFromInput),
  document: (store) => ({
    get: (key) => {
      const token = store.find(key);
      return token && tokenDocument(token);
    },
    entries: () => store.list().map((token): [string, unknown] => [token.accessToken, tokenDocument(token)]),
  }),
});
