import { z } from "zod";
import { type RateLimit, rateLimitSchema } from "../../emulation/rate-limiter.js";
import type { Caps } from "../caps.js";
import { TIER_LIMIT_MAX } from "../tiers/tier-structure.js";
import type { WebhookSettings } from "../webhooks/settings.js";

/**
 * How v2 operations authenticate. `strict`: the bearer token and the key pair, all three headers, as the spec lists
 * them. `either`: the key pair or a token, as the later public description of the v2 API has it.
 */
export const V2_AUTH_MODES = ["strict", "either"] as const;
export type V2AuthMode = (typeof V2_AUTH_MODES)[number];

export const MAX_JOURNAL_SIZE = 100_000;
/** As many as a project may have tier structures to show at once, and more than a projector shows. */
const MAX_AUDIENCE_STRUCTURES = 20;

/** Server-wide settings; a project's own settings override them one by one. */
export interface ProjectDefaults {
  v2AuthMode: V2AuthMode;
  tokenGraceSeconds: number;
  /** Most live OAuth tokens a project may hold (the spec gives the service's cap: TOKEN_LIMIT's default). */
  tokenLimit: number;
  /** Requests each project's journal keeps (the newest); 0 keeps none. */
  journalSize: number;
  rateLimit: RateLimit | null;
  /** Server-wide only: a project cannot raise its own. */
  caps: Caps;
  /** How webhooks are delivered (server-wide only). */
  webhooks: WebhookSettings;
}

export const projectSettingsSchema = z.strictObject({
  v2_auth_mode: z.enum(V2_AUTH_MODES).optional(),
  token_grace_seconds: z.number().int().min(0).max(86_400).optional(),
  rate_limit: rateLimitSchema.optional(),
  journal_size: z.number().int().min(0).max(MAX_JOURNAL_SIZE).optional(),
  /**
   * The tier structures the dashboard's audience views show (its overview, a customer's story, the moments a
   * customer reaches a tier), by id; every structure when absent. The emulator's own, as the rest of these are: a
   * demo project keeps structures made to test the API beside its program's, and an audience sees the program's.
   */
  audience_tier_structures: z.array(z.string().min(1).max(200)).max(MAX_AUDIENCE_STRUCTURES).optional(),
  /** Tiers a tier structure may hold (409 tier_limit_exceeded past it): 10 unless set, as the spec says. */
  tier_limit: z.number().int().min(1).max(TIER_LIMIT_MAX).optional(),
});

export type ProjectSettings = z.output<typeof projectSettingsSchema>;
