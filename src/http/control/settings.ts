import type { Router } from "express";
import { z } from "zod";
import type { Project } from "../../domain/projects/project.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { type ProjectSettings, projectSettingsSchema } from "../../domain/projects/settings.js";
import { jsonBody } from "../body.js";
import { getInput } from "../context.js";
import { route } from "../route.js";
import type { ControlDeps } from "./deps.js";
import { controlInput } from "./input.js";
import { settingsView } from "./shapes.js";

const params = z.object({ projectId: z.string() });
const replaceSettings = z.object({ params, body: projectSettingsSchema });
/** PATCH: the fields given replace the project's; null removes one, so the server's default applies again. */
const patchSettings = z.object({
  params,
  body: z.strictObject({
    v2_auth_mode: projectSettingsSchema.shape.v2_auth_mode.unwrap().nullable().optional(),
    token_grace_seconds: projectSettingsSchema.shape.token_grace_seconds.unwrap().nullable().optional(),
    rate_limit: projectSettingsSchema.shape.rate_limit.unwrap().nullable().optional(),
    journal_size: projectSettingsSchema.shape.journal_size.unwrap().nullable().optional(),
  }),
});

function apply(registry: ProjectRegistry, project: Project, settings: ProjectSettings): void {
  const before = JSON.stringify(project.effectiveSettings(registry.defaults).rateLimit);
  project.settings = settings;
  const effective = project.effectiveSettings(registry.defaults);
  // A new limit starts a new window; keeping the old count would make the first answers depend on the past.
  if (JSON.stringify(effective.rateLimit) !== before) project.rateLimiter.reset();
  project.journal.resize(effective.journalSize);
}

/** Per-project settings: rate limiting, the v2 auth mode, the token grace period and the journal size. */
export function settingsRoutes(router: Router, { registry, bodyLimit }: ControlDeps): void {
  route(router, "/projects/:projectId/settings", {
    get: [(req, res) => void res.json(settingsView(registry, registry.get(String(req.params.projectId))))],
    put: [
      ...jsonBody(bodyLimit),
      controlInput(replaceSettings),
      (_req, res) => {
        const input = getInput<z.output<typeof replaceSettings>>(res);
        const project = registry.get(input.params.projectId);
        apply(registry, project, input.body);
        res.json(settingsView(registry, project));
      },
    ],
    patch: [
      ...jsonBody(bodyLimit),
      controlInput(patchSettings),
      (_req, res) => {
        const input = getInput<z.output<typeof patchSettings>>(res);
        const project = registry.get(input.params.projectId);
        const next: Record<string, unknown> = { ...project.settings };
        for (const [name, value] of Object.entries(input.body)) {
          if (value === null) delete next[name];
          else if (value !== undefined) next[name] = value;
        }
        apply(registry, project, projectSettingsSchema.parse(next));
        res.json(settingsView(registry, project));
      },
    ],
  });
}
