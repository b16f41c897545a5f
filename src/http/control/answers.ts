import { z } from "zod";
import { projectSettingsSchema, V2_AUTH_MODES } from "../../domain/projects/settings.js";
import { FAULT_ACTIONS } from "../../emulation/faults/fault-rules.js";
import { rateLimitSchema } from "../../emulation/rate-limiter.js";

/**
 * The control API's own answers, as zod schemas: the document is generated from them (components.ts) and every
 * control answer in the tests is checked against it. They describe what shapes.ts and the stores write; nothing
 * parses with them.
 */

export const dateTime = z.string().meta({ format: "date-time" });
const int = z.int();

/** The real service's list envelope, which the control API's lists follow. */
export function listSchema(dataRef: string, item: z.ZodType) {
  return z.strictObject({
    object: z.literal("list"),
    data_ref: z.literal(dataRef),
    [dataRef]: z.array(item),
    total: int,
  });
}

/** The service's error object; other fields may come (the resource a 404 is about). */
export const errorAnswer = z.looseObject({
  code: int,
  key: z.string(),
  message: z.string(),
  details: z.string().optional(),
  request_id: z.string(),
  resource_id: z.string().optional(),
  resource_type: z.string().optional(),
});

export const healthAnswer = z.strictObject({
  status: z.literal("ok"),
  version: z.string(),
  uptime_s: int,
  projects: int,
  control: z
    .enum(["token", "open"])
    .describe(
      "whether control calls need X-Mock-Admin-Token (token) or answer anyone who reaches the port (open)",
    ),
});

export const projectAnswer = z.strictObject({
  object: z.literal("project"),
  id: z.string(),
  name: z.string(),
  now: dateTime,
  settings: projectSettingsSchema,
  api_keys: z.array(z.string()),
  counts: z.record(z.string(), int),
});

export const apiKeyAnswer = z.strictObject({
  object: z.literal("api_key"),
  app_id: z.string(),
  app_token: z.string(),
  client_id: z.string(),
  name: z.string().nullable(),
  permissions: z.array(z.string()),
  ip_allowlist: z.array(z.string()),
  status: z.enum(["ACTIVE", "BLOCKED"]),
  blocked_at: dateTime.nullable(),
});

export const createdProjectAnswer = z.strictObject({
  object: z.literal("project"),
  project_id: z.string(),
  name: z.string(),
  app_id: z.string(),
  app_token: z.string(),
  api_keys: z.array(apiKeyAnswer),
  now: dateTime,
  template: z.string().nullable(),
});

export const deletedAnswer = z.strictObject({
  object: z.string(),
  id: z.string().optional(),
  app_id: z.string().optional(),
  deleted: z.literal(true),
});

export const clearedAnswer = z.strictObject({ object: z.string(), deleted: int });

export const clockAnswer = z.strictObject({
  object: z.literal("clock"),
  project_id: z.string(),
  now: dateTime,
  offset_ms: z.number(),
  frozen: z.boolean().describe("Whether the clock stands still until moved or unfrozen."),
});

export const faultAnswer = z.strictObject({
  object: z.literal("fault"),
  id: z.string(),
  method: z.string(),
  path: z.string(),
  action: z.enum(FAULT_ACTIONS),
  status: int.nullable(),
  error: z.strictObject({ key: z.string(), message: z.string(), details: z.string().optional() }).nullable(),
  headers: z.record(z.string(), z.string()),
  latency_ms: int,
  times: int.nullable(),
  remaining: int.nullable(),
  matched: int,
  created_at: dateTime,
});

export const journalEntryAnswer = z.strictObject({
  request_id: z.string(),
  time: dateTime,
  method: z.string(),
  path: z.string(),
  operation: z
    .string()
    .nullable()
    .describe(
      "The operation whose route took the request (its name in GET /__mock/operations), one a fault rule or the rate limit answered first included; null when no operation's route takes it",
    ),
  query: z.record(z.string(), z.unknown()),
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  body: z.unknown(),
  status: int.nullable(),
  response_body: z.unknown(),
  duration_ms: int,
  authenticated: z.boolean(),
  fault: z.strictObject({ id: z.string(), action: z.enum(FAULT_ACTIONS) }).nullable(),
  rate_limited: z.boolean(),
});

export const settingsAnswer = z.strictObject({
  object: z.literal("settings"),
  project_id: z.string(),
  settings: projectSettingsSchema,
  effective: z.strictObject({
    v2_auth_mode: z.enum(V2_AUTH_MODES),
    token_grace_seconds: int,
    rate_limit: rateLimitSchema.nullable(),
    journal_size: int,
  }),
  rate_limit_window: z.strictObject({ used: int, remaining: int, resets_at: dateTime }).nullable(),
});
