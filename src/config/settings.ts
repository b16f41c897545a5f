import { z } from "zod";
import { MAX_JOURNAL_SIZE, V2_AUTH_MODES } from "../domain/projects/settings.js";
import { STATE_SYNC_MODES } from "../persistence/state-writer.js";
import { CLOCK_RANGE, clockRangeProblem } from "../platform/clock.js";
import { deepFreeze } from "../platform/deep-freeze.js";
import type { LogLevel } from "../platform/logger.js";
import { OTHER_VARIABLES } from "./other-variables.js";
import { corsOrigins, host, instant, int, trustProxy, webhookHosts } from "./setting-schemas.js";
import {
  optionsFrom,
  readRows,
  type SettingsTable,
  type TableConfig,
  type TableSettings,
  variableOf,
} from "./settings-table.js";

const LOG_LEVELS = [
  "fatal",
  "error",
  "warn",
  "info",
  "debug",
  "trace",
  "silent",
] as const satisfies LogLevel[];

/**
 * Every setting of the server, one row each, keyed by the startServer option it fills: its environment variable,
 * its flag (where the command line has one), its help line, how its text is read and checked, and its default (a
 * row without one is unset unless given). The command line (cli/), startServer's and the library's defaults
 * all come from here; docs/reference/settings.md and .env.example list the same (a test holds them to it).
 */
export const SETTINGS = {
  // Loopback unless told otherwise: a demo server must not expose its keys to the network by accident.
  host: {
    env: "HOST",
    flag: { name: "host", value: "<address>" },
    help: "address to listen on",
    schema: host,
    default: "127.0.0.1",
  },
  port: {
    env: "PORT",
    flag: { name: "port", short: "p", value: "<port>" },
    help: "port to listen on; 0 picks a free one",
    schema: int(0, 65_535),
    default: 3000,
  },
  fixturesDir: {
    env: "FIXTURES_DIR",
    flag: { name: "fixtures", value: "<dir>" },
    help: "folder of fixtures to serve instead of the embedded dataset",
    schema: z.string().min(1),
  },
  // No startServer option: main makes the logger (startServer's `logger`) at this level.
  logLevel: {
    env: "LOG_LEVEL",
    flag: { name: "log-level", value: "<level>" },
    help: "fatal, error, warn, info, debug, trace or silent",
    schema: z.enum(LOG_LEVELS),
    default: "info",
  },
  // No startServer option: main watches the process that started the bin (src/cli/launcher.ts). `npx ... &` then
  // `kill $!` must not leave a server holding its port; whoever daemonizes it on purpose says false.
  exitWithParent: {
    env: "EXIT_WITH_PARENT",
    flag: { name: "exit-with-parent", value: "<true|false>" },
    help: "stop when the process that started the server exits; false keeps it running",
    schema: z.enum(["true", "false"]).transform((value) => value === "true"),
    default: true,
  },
  // No startServer option and no flag: the bin writes the file once it listens (src/cli/health-file.ts), and the
  // image's health check reads the same variable from the container's environment, which a flag would not reach.
  healthFile: {
    env: "HEALTH_FILE",
    help: "file the server writes its address and admin token to once it listens, for the image's health check (mode 0600)",
    schema: z.string().min(1),
  },
  bodyLimit: {
    env: "BODY_LIMIT_BYTES",
    help: "largest request body, in bytes; 413 above it",
    schema: int(1, Number.MAX_SAFE_INTEGER),
    default: 1024 * 1024,
  },
  tokenGraceSeconds: {
    env: "TOKEN_GRACE_SECONDS",
    help: "seconds a blocked or deleted key's tokens keep working",
    schema: int(0, 86_400),
    default: 60,
  },
  // The service's own cap; raised only for load tests.
  tokenLimit: {
    env: "TOKEN_LIMIT",
    help: "most live OAuth tokens per project",
    schema: int(1, 1_000_000_000),
    default: 1000,
  },
  // The service's per-minute limit of its Organization plan (documentation/guides/limits.mdx: "API requests per
  // minute", Business 100, Organization 2,000): high enough for test suites, low enough to be met by a runaway loop.
  rateLimitPerMinute: {
    env: "RATE_LIMIT_PER_MINUTE",
    help: "API calls each project may make per minute of its clock; 0: no limit and no X-Rate-Limit headers",
    schema: int(0, 1_000_000_000),
    default: 2000,
  },
  // The spec lists all three headers for v2; `either` is the later public description.
  v2AuthMode: {
    env: "V2_AUTH_MODE",
    help: "strict: v2 needs the bearer token and the key pair; either: one of them",
    schema: z.enum(V2_AUTH_MODES),
    default: "strict",
  },
  trustProxy: {
    env: "TRUST_PROXY",
    help: 'Express "trust proxy": whose X-Forwarded-For IP allow-lists believe',
    schema: trustProxy,
    default: false,
  },
  // The real API supports CORS for any origin (documentation/api-reference/introduction-api.mdx).
  corsOrigins: {
    env: "CORS_ORIGINS",
    help: "browser origins allowed to call (comma-separated), or * for any",
    schema: corsOrigins,
    default: "*",
  },
  adminToken: {
    env: "ADMIN_TOKEN",
    flag: { name: "admin-token", value: "<token>" },
    help: "require this token (X-Mock-Admin-Token) on control API calls",
    schema: z.string().min(1),
  },
  journalSize: {
    env: "JOURNAL_SIZE",
    help: "requests each project's journal keeps; 0 turns it off",
    schema: int(0, MAX_JOURNAL_SIZE),
    default: 1000,
  },
  stateFile: {
    env: "STATE_FILE",
    flag: { name: "state-file", value: "<file>" },
    help: "keep every project's state in this file",
    schema: z.string().min(1),
  },
  // Snapshot tests (docs/guide/snapshots.md): the same requests answer byte for byte the same on every run.
  seed: {
    env: "SEED",
    flag: { name: "seed", value: "<text>" },
    help: "make every id, code, token and secret from this seed (predictable: for tests only)",
    schema: z.string().min(1).max(200),
  },
  freezeClock: {
    env: "FREEZE_CLOCK",
    flag: { name: "freeze-clock", value: "<instant>" },
    help: "every project's clock starts at this instant (2026-01-01T09:00:00Z, or 2026-01-01 for midnight UTC) and stands still until moved",
    schema: instant.refine(
      (value) => clockRangeProblem(Date.parse(value)) === undefined,
      `an ISO 8601 instant from ${CLOCK_RANGE}`,
    ),
  },
  stateSync: {
    env: "STATE_SYNC",
    flag: { name: "state-sync", value: "<mode>" },
    help: "interval: save within LOYALTY_MOCK_STATE_SAVE_INTERVAL_MS; always: before answering",
    schema: z.enum(STATE_SYNC_MODES),
    default: "interval",
  },
  stateSaveIntervalMs: {
    env: "STATE_SAVE_INTERVAL_MS",
    help: "in interval mode, the longest a change waits to be saved",
    schema: int(0, 3_600_000),
    default: 1000,
  },
  stateCompactBytes: {
    env: "STATE_COMPACT_BYTES",
    help: "a new snapshot is written once the change log passes this size and the last snapshot's",
    schema: int(4096, Number.MAX_SAFE_INTEGER),
    default: 67_108_864,
  },
  // Limits (docs/reference/limits.md): each refuses with the service's error object past it.
  "connectionLimits.headerBytes": {
    env: "HEADER_LIMIT_BYTES",
    help: "largest request head (request line and headers), in bytes; 431 above it",
    schema: int(1024, 1_048_576),
    default: 16_384,
  },
  "connectionLimits.headersTimeoutMs": {
    env: "HEADERS_TIMEOUT_MS",
    help: "longest a client may take to send a request's head; 408 after it",
    schema: int(100, 3_600_000),
    default: 10_000,
  },
  "connectionLimits.requestTimeoutMs": {
    env: "REQUEST_TIMEOUT_MS",
    help: "longest a client may take to send a whole request; 408 after it",
    schema: int(100, 3_600_000),
    default: 30_000,
  },
  // Node has no write timeout: a client that reads nothing would pin its answer for as long as it stays connected.
  "connectionLimits.writeTimeoutMs": {
    env: "WRITE_TIMEOUT_MS",
    help: "longest an answer may make no progress (its client reading nothing) before the connection is cut",
    schema: int(100, 3_600_000),
    default: 30_000,
  },
  "inputLimits.jsonDepth": {
    env: "JSON_DEPTH_LIMIT",
    help: "deepest nesting of objects and arrays in a JSON body; 400 past it",
    schema: int(2, 1000),
    default: 32,
  },
  "inputLimits.stringChars": {
    env: "STRING_LIMIT_CHARS",
    help: "longest string in a body, property names included, in characters; 400 past it",
    schema: int(1, 100_000_000),
    default: 65_536,
  },
  "inputLimits.metadataKeys": {
    env: "METADATA_KEYS_LIMIT",
    help: "most properties of a metadata object; 400 past it",
    schema: int(1, 1_000_000),
    default: 256,
  },
  // Caps (docs/reference/limits.md): past each, the call that would add one more is 409 limit_exceeded.
  "caps.projects": {
    env: "PROJECT_LIMIT",
    help: "most projects of the server (control API creations); 409 past it",
    schema: int(1, 1_000_000),
    default: 1000,
  },
  "caps.keysPerProject": {
    env: "KEY_LIMIT",
    help: "most API keys per project; 409 past it",
    schema: int(1, 1_000_000),
    default: 1000,
  },
  "caps.faultsPerProject": {
    env: "FAULT_LIMIT",
    help: "most fault rules per project; 409 past it",
    schema: int(1, 1_000_000),
    default: 1000,
  },
  // Generous enough for the soak (a reset every 20 000 requests) and any test; a load test may raise them.
  "caps.eventsPerProject": {
    env: "EVENT_LIMIT",
    help: "most custom events a project keeps; POST /v1/events is 409 past it",
    schema: int(1, 100_000_000),
    default: 100_000,
  },
  "caps.membersPerProject": {
    env: "MEMBER_LIMIT",
    help: "most card assignments (publications) a project keeps; POST .../members is 409 past it",
    schema: int(1, 100_000_000),
    default: 100_000,
  },
  "caps.webhooksPerProject": {
    env: "WEBHOOK_LIMIT",
    help: "most webhook endpoints per project; 409 past it",
    schema: int(1, 1_000_000),
    default: 100,
  },
  // A snapshot shares the project's records (a reference each, not a copy): a few for a demo, not thousands.
  "caps.snapshotsPerProject": {
    env: "SNAPSHOT_LIMIT",
    help: "most named snapshots per project; 409 past it",
    schema: int(1, 1000),
    default: 20,
  },
  // Fits the image in a 2 GiB container (docs/guide/docker.md): a million-card project, 20 snapshots and a restore.
  "caps.snapshotMemoryMb": {
    env: "SNAPSHOT_MEMORY_MB",
    help: "heap (MiB) a snapshot save or restore may bring the server to, at most 85% of Node's heap limit; 409 past it",
    schema: int(16, 1_000_000),
    default: 1536,
  },
  // Webhooks (docs/guide/webhooks.md). The vendor gives its receivers 10 s to answer.
  webhookTimeoutMs: {
    env: "WEBHOOK_TIMEOUT_MS",
    help: "longest one webhook delivery may take, connection to the answer's end; failed after it",
    schema: int(100, 600_000),
    default: 10_000,
  },
  webhookQueueLimit: {
    env: "WEBHOOK_QUEUE_LIMIT",
    help: "webhook deliveries that may wait per endpoint; past it a delivery is recorded as failed, not sent",
    schema: int(1, 1_000_000),
    default: 1000,
  },
  webhookOutboxSize: {
    env: "WEBHOOK_OUTBOX_SIZE",
    help: "webhook deliveries each project's outbox keeps (the newest; in memory only); 0 keeps none",
    schema: int(0, 1_000_000),
    default: 1000,
  },
  // Loopback only unless told otherwise: the control API must not be a way to make requests to other machines.
  webhookHosts: {
    env: "WEBHOOK_HOSTS",
    help: "hosts webhook URLs may name besides loopback (comma-separated), or * for any",
    schema: webhookHosts,
  },
} as const satisfies SettingsTable;

/** The settings by base name (PORT for LOYALTY_MOCK_PORT), as read and checked. */
export type Config = TableConfig<typeof SETTINGS>;
/** The settings by option, grouped as startServer takes them. */
export type Settings = TableSettings<typeof SETTINGS>;

/** Settings that cannot be used; `problems` has one line for each, naming the variable, value and what is accepted. */
export class ConfigError extends Error {
  override name = "ConfigError";
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join("\n"));
    this.problems = problems;
  }
}

/** Node refuses a server whose head timeout is longer than its request timeout. */
function timeoutsInOrder(config: Config): string | undefined {
  const head = SETTINGS["connectionLimits.headersTimeoutMs"];
  const whole = SETTINGS["connectionLimits.requestTimeoutMs"];
  if (config[head.env] <= config[whole.env]) return undefined;
  return `Invalid value for ${variableOf(head)}: "${config[head.env]}"; must not be longer than ${variableOf(whole)} (${config[whole.env]})`;
}

/**
 * Reads the settings from the flags (by base name) and the environment, an empty value counting as unset,
 * refusing bad values (every one, each on its line) rather than starting half-configured. Each prefixed
 * variable that is no setting, nor one another command or the compose file reads (other-variables.ts), is passed
 * to `warn`. `labels` name variables that came from a file.
 */
export function readConfig(
  env: NodeJS.ProcessEnv,
  flags: Record<string, string> = {},
  warn: (line: string) => void = () => undefined,
  labels: Record<string, string> = {},
): Config {
  const { config, problems, warnings } = readRows(SETTINGS, env, flags, labels, OTHER_VARIABLES);
  for (const line of warnings) warn(line);
  const problem = problems.length === 0 ? timeoutsInOrder(config as Config) : undefined;
  if (problem) problems.push(problem);
  if (problems.length > 0) throw new ConfigError(problems);
  return config as Config;
}

/** The same settings under their option names, with the limits grouped as startServer takes them. */
export function settingsOf(config: Config): Settings {
  return optionsFrom(SETTINGS, config) as Settings;
}

/**
 * What a server runs with when nothing is set: the table's defaults, and that of the one startServer option no
 * variable sets. Frozen, so that no caller can change them for every server after it.
 */
export const DEFAULTS = deepFreeze({
  ...settingsOf(readConfig({})),
  /**
   * Longest close() waits for in-flight requests before cutting their connections. Docker kills a container 10 s
   * after `docker stop`: the drain, the webhook deliveries' grace (at most 2 s) and the state file's last save
   * must all fit in that, with room to spare.
   */
  drainTimeoutMs: 5_000,
});
