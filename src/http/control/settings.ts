import { z } from "zod";
import { conflict } from "../../domain/errors.js";
import type { Project } from "../../domain/projects/project.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { type ProjectSettings, projectSettingsSchema } from "../../domain/projects/settings.js";
import { TIER_LIMIT_DEFAULT } from "../../domain/tiers/tier-structure.js";
import { settingsAnswer } from "./answers.js";
import { type ControlRoute, row } from "./route-table.js";
import { settingsView } from "./shapes.js";

/** PATCH: the fields given replace the project's; null removes one, so the server's default applies again. */
export const settingsPatchBody = z
  .strictObject({
    v2_auth_mode: projectSettingsSchema.shape.v2_auth_mode.unwrap().nullable().optional(),
    token_grace_seconds: projectSettingsSchema.shape.token_grace_seconds.unwrap().nullable().optional(),
    rate_limit: projectSettingsSchema.shape.rate_limit.unwrap().nullable().optional(),
    journal_size: projectSettingsSchema.shape.journal_size.unwrap().nullable().optional(),
    audience_tier_structures: projectSettingsSchema.shape.audience_tier_structures
      .unwrap()
      .nullable()
      .optional(),
    tier_limit: projectSettingsSchema.shape.tier_limit.unwrap().nullable().optional(),
  })
  .describe("The fields given replace the project's own; null removes one so the server's default applies.");

/**
 * A tier limit below what a structure already holds would leave the project a state it cannot be saved and read
 * back in (a document's structures hold no more than its limit): refused, naming the structure, and nothing changes.
 */
function checkTierLimit(project: Project, settings: ProjectSettings): void {
  const limit = settings.tier_limit ?? TIER_LIMIT_DEFAULT;
  const most = project.tierStructures.mostTiers();
  if (most > limit)
    throw conflict(
      `tier_limit ${limit} is below the ${most} tiers a tier structure of project ${project.id} already holds`,
    );
}

function apply(registry: ProjectRegistry, project: Project, settings: ProjectSettings): void {
  checkTierLimit(project, settings);
  const before = JSON.stringify(project.effectiveSettings(registry.defaults).rateLimit);
  project.settings = settings;
  const effective = project.effectiveSettings(registry.defaults);
  // A new limit starts a new window; keeping the old count would make the first answers depend on the past.
  if (JSON.stringify(effective.rateLimit) !== before) project.rateLimiter.reset();
  project.journal.resize(effective.journalSize);
}

const PATH = "/projects/{projectId}/settings";

/**
 * Per-project settings: rate limiting, the v2 auth mode, the token grace period, the journal size and the tier
 * limit.
 */
export const settingsRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: PATH,
    tag: "settings",
    summary: "The project's settings and those in force",
    output: settingsAnswer,
    handle: ({ deps: { registry }, project }) => settingsView(registry, project),
  }),
  row({
    method: "PUT",
    path: PATH,
    tag: "settings",
    summary: "Replace the project's settings",
    body: projectSettingsSchema,
    errors: { 409: ["conflict"] },
    output: settingsAnswer,
    handle: ({ deps: { registry }, body, project }) => {
      apply(registry, project, body);
      return settingsView(registry, project);
    },
  }),
  row({
    method: "PATCH",
    path: PATH,
    tag: "settings",
    summary: "Change some settings",
    body: settingsPatchBody,
    errors: { 409: ["conflict"] },
    output: settingsAnswer,
    handle: ({ deps: { registry }, body, project }) => {
      const next: Record<string, unknown> = { ...project.settings };
      for (const [name, value] of Object.entries(body)) {
        if (value === null) delete next[name];
        else if (value !== undefined) next[name] = value;
      }
      apply(registry, project, projectSettingsSchema.parse(next));
      return settingsView(registry, project);
    },
  }),
];
