import type { Caps } from "../domain/caps.js";
import type { ProjectDefaults } from "../domain/projects/settings.js";
import type { WebhookSettings } from "../domain/webhooks/settings.js";
import { DEFAULTS, type Settings } from "./settings.js";

/**
 * The server-wide project settings from the server's settings. The rate limit is per minute, as the service
 * counts its plans' limits; a project's own `rate_limit` replaces it.
 */
export function projectDefaultsOf(
  settings: Pick<
    Settings,
    | "v2AuthMode"
    | "tokenGraceSeconds"
    | "tokenLimit"
    | "journalSize"
    | "rateLimitPerMinute"
    | "caps"
    | "webhookTimeoutMs"
    | "webhookQueueLimit"
    | "webhookOutboxSize"
    | "webhookHosts"
  >,
): ProjectDefaults {
  const { v2AuthMode, tokenGraceSeconds, tokenLimit, journalSize, rateLimitPerMinute, caps } = settings;
  const rateLimit = rateLimitPerMinute > 0 ? { limit: rateLimitPerMinute, window_seconds: 60 } : null;
  const webhooks = {
    timeoutMs: settings.webhookTimeoutMs,
    queueLimit: settings.webhookQueueLimit,
    outboxSize: settings.webhookOutboxSize,
    hosts: settings.webhookHosts ?? [],
  };
  return { v2AuthMode, tokenGraceSeconds, tokenLimit, journalSize, rateLimit, caps: { ...caps }, webhooks };
}

/** Project defaults as a caller gives them: any of them, any of the caps and any of the webhook settings. */
export type GivenDefaults = Partial<Omit<ProjectDefaults, "caps" | "webhooks">> & {
  caps?: Partial<Caps>;
  webhooks?: Partial<WebhookSettings>;
};

/** The given project defaults, with what the caller left out taken from the settings table's defaults. */
export function completeDefaults(given: GivenDefaults = {}): ProjectDefaults {
  const base = projectDefaultsOf(DEFAULTS);
  const caps = { ...base.caps, ...given.caps };
  const webhooks = { ...base.webhooks, ...given.webhooks };
  return { ...base, ...given, caps, webhooks };
}
