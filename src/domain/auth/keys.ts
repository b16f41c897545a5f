import { CAP_VARIABLES } from "../caps.js";
import { conflict, limitExceeded } from "../errors.js";
import type { Project } from "../projects/project.js";
import type { ProjectRegistry } from "../projects/registry.js";
import { type ApiKey, apiKeySchema, toApiKey, withCredentials } from "./api-key.js";

/**
 * The API key lifecycle of the spec's token rules, as store operations (the control API exposes them):
 * a blocked or deleted key stops at once, and its tokens stop after the project's grace period; a regenerated
 * secret replaces the old one at once and leaves the tokens working.
 */

export interface NewKey {
  app_id?: string;
  app_token?: string;
  client_id?: string;
  name?: string;
  permissions?: string[];
  ip_allowlist?: string[];
}

export function createKey(registry: ProjectRegistry, project: Project, input: NewKey = {}): ApiKey {
  const parsed = apiKeySchema.parse(withCredentials(input, project.ids));
  const key = toApiKey(parsed);
  // A second key under the same app id would silently replace the first; refuse it like one of another project.
  if (project.apiKeys.has(key.app_id)) throw conflict(`App id ${key.app_id} is used by another key`);
  const limit = registry.defaults.caps.keysPerProject;
  if (project.apiKeys.size >= limit)
    throw limitExceeded(`Project ${project.id}`, "API keys", limit, CAP_VARIABLES.keysPerProject);
  registry.indexAppId(key.app_id, project);
  project.apiKeys.put(key);
  return key;
}

function graceEnd(registry: ProjectRegistry, project: Project): number {
  return project.clock.now() + project.effectiveSettings(registry.defaults).tokenGraceSeconds * 1000;
}

export function blockKey(registry: ProjectRegistry, project: Project, appId: string): ApiKey {
  const key = project.apiKeys.get(appId);
  if (key.status !== "BLOCKED") {
    key.status = "BLOCKED";
    key.blocked_at = project.clock.iso();
    project.tokens.revokeForKey(appId, graceEnd(registry, project));
    // Put back, though changed in place, so the store's watcher (the state file) learns of it.
    project.apiKeys.put(key);
  }
  return key;
}

/** Unblocking lets the key authenticate and issue tokens again; tokens the block revoked stay revoked. */
export function unblockKey(project: Project, appId: string): ApiKey {
  const key = project.apiKeys.get(appId);
  key.status = "ACTIVE";
  key.blocked_at = null;
  return project.apiKeys.put(key);
}

export function deleteKey(registry: ProjectRegistry, project: Project, appId: string): void {
  project.apiKeys.get(appId);
  project.tokens.revokeForKey(appId, graceEnd(registry, project));
  project.apiKeys.delete(appId);
  registry.unindexAppId(appId);
}

export function regenerateKey(project: Project, appId: string): ApiKey {
  const key = project.apiKeys.get(appId);
  key.app_token = project.ids.uuid();
  return project.apiKeys.put(key);
}
