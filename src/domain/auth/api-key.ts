import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import type { IdSource } from "../../platform/ids.js";
import { RecordStore } from "../record-store.js";
import { ALL_SCOPES, isScope } from "../scopes.js";
import { nullableTimestamp } from "../shared/schema-parts.js";

const cidr = z.string().refine((value) => {
  try {
    if (value.includes("/")) ipaddr.parseCIDR(value);
    else ipaddr.parse(value);
    return true;
  } catch {
    return false;
  }
}, "must be an IP address or a CIDR range");

export const apiKeySchema = z.strictObject({
  app_id: z.string().min(1).max(200),
  app_token: z.string().min(1).max(500),
  /** The OAuth client id the service reports in tokens made with this key; derived from app_id when absent. */
  client_id: z.string().min(1).optional(),
  name: z.string().optional(),
  /** Scope values the key (and its tokens) may use; all of them when absent. */
  permissions: z
    .array(z.string().refine(isScope, "must be a scope value of the spec"))
    .default(() => [...ALL_SCOPES]),
  /** Addresses the key and its tokens may be used from; any when empty. */
  ip_allowlist: z.array(cidr).default([]),
  status: z.enum(["ACTIVE", "BLOCKED"]).default("ACTIVE"),
  blocked_at: nullableTimestamp.default(null),
});

/** What a new key may be given (control API): credentials are generated when absent. */
export const newApiKeySchema = apiKeySchema
  .pick({ app_id: true, app_token: true, client_id: true, name: true, permissions: true, ip_allowlist: true })
  .partial({ app_id: true, app_token: true });

export type ApiKey = Omit<z.output<typeof apiKeySchema>, "client_id"> & { id: string; client_id: string };

function deriveClientId(appId: string): string {
  return `cli_${createHash("sha256").update(appId).digest("hex").slice(0, 24)}`;
}

export function toApiKey(parsed: z.output<typeof apiKeySchema>): ApiKey {
  return { ...parsed, id: parsed.app_id, client_id: parsed.client_id ?? deriveClientId(parsed.app_id) };
}

/** A project's API keys, by app id. Deleted keys are gone from here; their tokens live on for the grace period. */
export class ApiKeyStore extends RecordStore<ApiKey> {}

/**
 * A key with the service's kind of credentials where it brings none: app ids and secrets are UUIDs, v4 drawing
 * 122 bits from the project's source (the CSPRNG unless seeded). Everything else stays as given.
 */
export function withCredentials<K extends object>(
  key: K,
  ids: IdSource,
): K & { app_id: unknown; app_token: unknown } {
  const given = key as { app_id?: unknown; app_token?: unknown };
  return { ...key, app_id: given.app_id ?? ids.uuid(), app_token: given.app_token ?? ids.uuid() };
}
