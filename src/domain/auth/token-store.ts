import { z } from "zod";
import { eachOfArray, type Steps } from "../../platform/steps.js";
import type { RecordWatcher } from "../record-store.js";
import { timestamp } from "../shared/schema-parts.js";

export const TOKEN_LIFETIME_SECONDS = 900;

export const tokenSchema = z.strictObject({
  access_token: z.string().min(16),
  app_id: z.string().min(1),
  client_id: z.string().min(1),
  scope: z.array(z.string()).min(1),
  permissions: z.array(z.string()),
  ip_allowlist: z.array(z.string()),
  issued_at: timestamp,
  expires_at: timestamp,
  /** Set when the generating key is blocked or deleted: the token stops working at this moment. */
  revoke_at: timestamp.nullable().default(null),
});

/** A token as kept in memory: times as epoch milliseconds, so checks on the hot path do no parsing. */
export interface TokenRecord {
  accessToken: string;
  appId: string;
  clientId: string;
  scope: readonly string[];
  permissions: readonly string[];
  ipAllowlist: readonly string[];
  issuedAtMs: number;
  expiresAtMs: number;
  revokeAtMs: number | null;
}

export type TokenState = "valid" | "expired" | "revoked";

export function tokenState(token: TokenRecord, nowMs: number): TokenState {
  if (token.revokeAtMs !== null && nowMs >= token.revokeAtMs) return "revoked";
  if (nowMs >= token.expiresAtMs) return "expired";
  return "valid";
}

/**
 * The OAuth tokens of one project, in issue order. Expired tokens are dropped as new ones are issued, so the store
 * holds at most the live tokens plus whatever expired since the last issue; memory stays bounded by the cap.
 */
export class TokenStore {
  readonly #tokens = new Map<string, TokenRecord>();
  #watcher: RecordWatcher | undefined;

  constructor(tokens: Iterable<TokenRecord> = []) {
    for (const token of tokens) this.#tokens.set(token.accessToken, token);
  }

  /** As RecordStore.seed: tokens added while the store is built, before anyone reads it, nobody told. */
  *seed<R = TokenRecord>(tokens: readonly R[], as?: (token: R) => TokenRecord): Steps<void> {
    yield* eachOfArray(tokens, (input) => {
      const token = as === undefined ? (input as unknown as TokenRecord) : as(input);
      this.#tokens.set(token.accessToken, token);
    });
  }

  /** As RecordStore.watch: told the access token of every token added, changed or dropped. */
  watch(watcher: RecordWatcher | undefined): void {
    this.#watcher = watcher;
  }

  find(accessToken: string): TokenRecord | undefined {
    return this.#tokens.get(accessToken);
  }

  add(token: TokenRecord): void {
    this.#tokens.set(token.accessToken, token);
    this.#watcher?.(token.accessToken, false);
  }

  /**
   * Drops tokens that can never work again, so that afterwards `size` counts the live tokens (the ones the
   * per-project cap counts); returns the dropped access tokens so indexes can follow.
   */
  prune(nowMs: number): string[] {
    const dropped: string[] = [];
    for (const token of this.#tokens.values()) {
      if (tokenState(token, nowMs) === "valid") continue;
      this.#tokens.delete(token.accessToken);
      dropped.push(token.accessToken);
      this.#watcher?.(token.accessToken, true);
    }
    return dropped;
  }

  /** Starts the grace period of every token the key made; a token already revoked earlier keeps its earlier time. */
  revokeForKey(appId: string, revokeAtMs: number): void {
    for (const token of this.#tokens.values()) {
      if (token.appId !== appId) continue;
      if (token.revokeAtMs === null || token.revokeAtMs > revokeAtMs) {
        token.revokeAtMs = revokeAtMs;
        this.#watcher?.(token.accessToken, false);
      }
    }
  }

  list(): TokenRecord[] {
    return [...this.#tokens.values()];
  }

  get size(): number {
    return this.#tokens.size;
  }
}

export function tokenFromInput(input: z.output<typeof tokenSchema>): TokenRecord {
  return {
    accessToken: input.access_token,
    appId: input.app_id,
    clientId: input.client_id,
    scope: input.scope,
    permissions: input.permissions,
    ipAllowlist: input.ip_allowlist,
    issuedAtMs: Date.parse(input.issued_at),
    expiresAtMs: Date.parse(input.expires_at),
    revokeAtMs: input.revoke_at === null ? null : Date.parse(input.revoke_at),
  };
}
