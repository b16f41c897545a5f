import type { ApiKey } from "../../domain/auth/api-key.js";
import type { Project } from "../../domain/projects/project.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { storeCounts } from "../../domain/projects/stores.js";

/**
 * The control API's answers. Lists follow the real service's list envelope (`object: "list"`, `data_ref` naming
 * the array, `total`), so a client that already reads the service's lists reads these too.
 */
export function listOf<T>(dataRef: string, items: T[], total: number = items.length) {
  return { object: "list" as const, data_ref: dataRef, [dataRef]: items, total };
}

export function keyView(key: ApiKey) {
  return {
    object: "api_key" as const,
    app_id: key.app_id,
    app_token: key.app_token,
    client_id: key.client_id,
    name: key.name ?? null,
    permissions: key.permissions,
    ip_allowlist: key.ip_allowlist,
    status: key.status,
    blocked_at: key.blocked_at,
  };
}

export function clockView(project: Project) {
  return {
    object: "clock" as const,
    project_id: project.id,
    now: project.clock.iso(),
    offset_ms: project.clock.offsetMs,
    frozen: project.clock.frozenAt !== undefined,
  };
}

export function projectView(project: Project) {
  return {
    object: "project" as const,
    id: project.id,
    name: project.name,
    now: project.clock.iso(),
    settings: project.settings,
    api_keys: project.apiKeys.list().map((key) => key.app_id),
    counts: {
      ...storeCounts(project.stores),
      requests: project.journal.size,
      faults: project.faults.list().length,
    },
  };
}

export function settingsView(registry: ProjectRegistry, project: Project) {
  const effective = project.effectiveSettings(registry.defaults);
  return {
    object: "settings" as const,
    project_id: project.id,
    settings: project.settings,
    effective: {
      v2_auth_mode: effective.v2AuthMode,
      token_grace_seconds: effective.tokenGraceSeconds,
      rate_limit: effective.rateLimit,
      journal_size: effective.journalSize,
    },
    rate_limit_window:
      effective.rateLimit === null
        ? null
        : project.rateLimiter.window(effective.rateLimit, project.clock.now()),
  };
}
