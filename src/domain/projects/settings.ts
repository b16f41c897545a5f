import { z } from "zod";

/**
 * How v2 operations authenticate. `strict`: the bearer token and the key pair, all three headers, as the spec lists
 * them. `either`: the key pair or a token, as the later public description of the v2 API has it.
 */
export const V2_AUTH_MODES = ["strict", "either"] as const;
export type V2AuthMode = (typeof V2_AUTH_MODES)[number];

/**
 * The real service counts a project's API calls per hour or per minute depending on the plan; a project here may
 * have any fixed window. Projects without one get the server's per-minute default (RATE_LIMIT_PER_MINUTE).
 */
export const rateLimitSchema = z.strictObject({
  // As high as RATE_LIMIT_PER_MINUTE goes: load tests send millions of calls a minute to one project.
  limit: z.number().int().min(1).max(1_000_000_000),
  window_seconds: z.number().int().min(1).max(86_400).default(3600),
});

export type RateLimit = z.output<typeof rateLimitSchema>;

export const MAX_JOURNAL_SIZE = 100_000;

/** Server-wide settings; a project's own settings override them one by one. */
export interface ProjectDefaults {
  v2AuthMode: V2AuthMode;
  tokenGraceSeconds: number;
  /** Most live OAuth tokens a project may hold (the spec gives the service's cap: TOKEN_LIMIT's default). */
  tokenLimit: number;
  /** Requests each project's journal keeps (the newest); 0 keeps none. */
  journalSize: number;
  rateLimit: RateLimit | null;
}

export const projectSettingsSchema = z.strictObject({
  v2_auth_mode: z.enum(V2_AUTH_MODES).optional(),
  token_grace_seconds: z.number().int().min(0).max(86_400).optional(),
  rate_limit: rateLimitSchema.optional(),
  journal_size: z.number().int().min(0).max(MAX_JOURNAL_SIZE).optional(),
});

export type ProjectSettings = z.output<typeof projectSettingsSchema>;
