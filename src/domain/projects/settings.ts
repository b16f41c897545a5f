import { z } from "zod";
import { TOKENS_PER_PROJECT } from "../auth/token-store.js";

/**
 * How v2 operations authenticate. `strict`: the bearer token and the key pair, all three headers, as the spec lists
 * them. `either`: the key pair or a token, as the later public description of the v2 API has it.
 */
export const V2_AUTH_MODES = ["strict", "either"] as const;
export type V2AuthMode = (typeof V2_AUTH_MODES)[number];

/** Server-wide defaults; a project's own settings override them one by one. */
export interface ProjectDefaults {
  v2AuthMode: V2AuthMode;
  tokenGraceSeconds: number;
  /** Most live OAuth tokens a project may hold; the spec says 1000. */
  tokenLimit: number;
}

export const DEFAULT_PROJECT_DEFAULTS: ProjectDefaults = {
  v2AuthMode: "strict",
  tokenGraceSeconds: 60,
  tokenLimit: TOKENS_PER_PROJECT,
};

export const projectSettingsSchema = z.strictObject({
  v2_auth_mode: z.enum(V2_AUTH_MODES).optional(),
  token_grace_seconds: z.number().int().min(0).max(86_400).optional(),
});

export type ProjectSettings = z.output<typeof projectSettingsSchema>;
