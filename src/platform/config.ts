import { existsSync } from "node:fs";
import { z } from "zod";
import { MAX_JOURNAL_SIZE, V2_AUTH_MODES } from "../domain/projects/settings.js";
import { DEFAULT_SAVE_INTERVAL_MS, STATE_SYNC_MODES } from "../persistence/state-writer.js";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** "true"/"false", a hop count, or Express's own names and address lists ("loopback", "10.0.0.0/8"). */
const trustProxy = z.string().transform((value): boolean | number | string => {
  if (value === "true") return true;
  if (value === "false" || value === "") return false;
  return /^\d+$/.test(value) ? Number(value) : value;
});

/** Every setting the server reads from its environment; README "Settings" and .env.example list the same. */
export const configSchema = z.object({
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  FIXTURES_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024 * 1024),
  TOKEN_GRACE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  TOKEN_LIMIT: z.coerce.number().int().min(1).max(1_000_000_000).default(1000),
  V2_AUTH_MODE: z.enum(V2_AUTH_MODES).default("strict"),
  TRUST_PROXY: trustProxy.default(false),
  /** When set, every call of the control API (/__mock) must send it in X-Mock-Admin-Token. */
  MOCK_ADMIN_TOKEN: z.string().min(1).optional(),
  /** Requests each project's journal keeps (the newest); 0 turns the journal off. */
  JOURNAL_SIZE: z.coerce.number().int().min(0).max(MAX_JOURNAL_SIZE).default(1000),
  STATE_FILE: z.string().min(1).optional(),
  STATE_SYNC: z.enum(STATE_SYNC_MODES).default("interval"),
  STATE_SAVE_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(DEFAULT_SAVE_INTERVAL_MS),
  // Limits (README "Security and limits"): each refuses with the service's error object past it.
  /** Largest request head (request line and headers), in bytes; 431 above it. */
  HEADER_LIMIT_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(16_384),
  /** Longest a client may take to send a request's head; 408 after it. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /** Longest a client may take to send a whole request, body included; 408 after it. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Deepest nesting of objects and arrays in a JSON body; 400 invalid_payload past it. */
  JSON_DEPTH_LIMIT: z.coerce.number().int().min(2).max(1000).default(32),
  /** Longest string (property names included) in a body, in characters; 400 invalid_payload past it. */
  STRING_LIMIT_CHARS: z.coerce.number().int().min(1).max(100_000_000).default(65_536),
  /** Most properties of a `metadata` object; 400 invalid_payload past it. */
  METADATA_KEYS_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(256),
});

export type Config = z.output<typeof configSchema>;

/** Node refuses a server whose head timeout is longer than its request timeout. */
function timeoutsInOrder(config: Config): string | undefined {
  if (config.HEADERS_TIMEOUT_MS <= config.REQUEST_TIMEOUT_MS) return undefined;
  return "HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS";
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Reads the settings, refusing a bad value with the variable's name rather than starting half-configured. */
export function readConfig(env: NodeJS.ProcessEnv): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = configSchema.safeParse(present);
  if (result.success) {
    const problem = timeoutsInOrder(result.data);
    if (problem) throw new ConfigError(`Invalid settings: ${problem}`);
    return result.data;
  }
  const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  throw new ConfigError(`Invalid settings: ${problems.join("; ")}`);
}

/** Loads `.env` from the working directory when there is one; variables already set win over the file. */
export function loadDotEnv(file = ".env"): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
