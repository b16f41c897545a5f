import { z } from "zod";
import type { WebhookSettings } from "../webhooks/dispatcher.js";

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

/**
 * What the server and each project may keep, so that a load test, a runaway script or a CI server nobody cleans
 * cannot grow the memory without bound: past a cap the operation that would add one more is refused (409
 * `limit_exceeded`, naming the variable that raises it) and changes nothing. Customers, cards and publications
 * are bounded through them: an event or an assignment adds at most one customer, an assignment one publication
 * and at most one card. Caps count what a project holds, fixtures included, and apply to what the API adds;
 * fixtures, state files and state imports are loaded whole (imports are bounded by their body limit).
 */
export interface Caps {
  /** Projects of the server (POST /__mock/projects). */
  projects: number;
  /** API keys of a project (POST .../keys). */
  keysPerProject: number;
  /** Fault rules of a project (POST .../faults). */
  faultsPerProject: number;
  /** Custom events a project keeps (POST /v1/events). */
  eventsPerProject: number;
  /** Publications (loyalty card assignments) a project keeps (POST /v1/loyalties/{campaignId}/members). */
  membersPerProject: number;
  /** Webhook endpoints of a project (POST .../webhooks). */
  webhooksPerProject: number;
}

/**
 * The variable that sets each cap, as a user sets it, for the error that refuses past it. src/settings.ts declares
 * the same (test/caps.test.ts holds the two together); the domain cannot import the entry layer's table.
 */
export const CAP_VARIABLES = {
  projects: "LOYALTY_MOCK_PROJECT_LIMIT",
  keysPerProject: "LOYALTY_MOCK_KEY_LIMIT",
  faultsPerProject: "LOYALTY_MOCK_FAULT_LIMIT",
  eventsPerProject: "LOYALTY_MOCK_EVENT_LIMIT",
  membersPerProject: "LOYALTY_MOCK_MEMBER_LIMIT",
  webhooksPerProject: "LOYALTY_MOCK_WEBHOOK_LIMIT",
} as const satisfies Record<keyof Caps, string>;

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
});

export type ProjectSettings = z.output<typeof projectSettingsSchema>;
