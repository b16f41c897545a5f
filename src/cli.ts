import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { configSchema } from "./platform/config.js";

/**
 * The command line of the `loyalty-mock` bin. Each flag sets one setting of the environment (README "Settings"),
 * so a flag beats the environment variable, which beats `.env`.
 */
const FLAGS = {
  port: { env: "PORT", short: "p", value: "<port>", help: "port to listen on; 0 picks a free one (3000)" },
  host: { env: "HOST", value: "<address>", help: "address to listen on (127.0.0.1)" },
  fixtures: {
    env: "FIXTURES_DIR",
    value: "<dir>",
    help: "folder of fixtures to serve (the embedded dataset)",
  },
  "state-file": { env: "STATE_FILE", value: "<file>", help: "keep every project's state in this file" },
  "state-sync": {
    env: "STATE_SYNC",
    value: "<mode>",
    help: "interval: save within STATE_SAVE_INTERVAL_MS; always: before answering",
  },
  "log-level": {
    env: "LOG_LEVEL",
    value: "<level>",
    help: "fatal, error, warn, info, debug, trace or silent",
  },
  "admin-token": {
    env: "MOCK_ADMIN_TOKEN",
    value: "<token>",
    help: "require this token on control API calls",
  },
} as const;

type FlagName = keyof typeof FLAGS;

export type CommandLine =
  | { command: "help" }
  | { command: "version" }
  /** `env`: the settings the flags give, by variable name, to lay over the environment. */
  | { command: "serve"; env: Record<string, string> };

/** Wrong use of the command line; the bin prints the message and exits with status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export function parseCommandLine(args: readonly string[]): CommandLine {
  const options = Object.fromEntries(
    Object.entries(FLAGS).map(([name, flag]) => [
      name,
      { type: "string" as const, ...("short" in flag && { short: flag.short }) },
    ]),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { ...options, help: { type: "boolean", short: "h" }, version: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { command: "help" };
  if (values.version) return { command: "version" };

  const env: Record<string, string> = {};
  for (const [name, flag] of Object.entries(FLAGS) as [FlagName, (typeof FLAGS)[FlagName]][]) {
    const value = values[name];
    if (typeof value !== "string") continue;
    // Checked here as well as with the rest of the settings, so the message names the flag the user typed.
    const check = configSchema.shape[flag.env].safeParse(value);
    if (!check.success)
      throw new UsageError(`Invalid value for --${name}: ${check.error.issues[0]?.message}`);
    env[flag.env] = value;
  }
  return { command: "serve", env };
}

export function usage(): string {
  const lines = Object.entries(FLAGS).map(([name, flag]) => {
    const short = "short" in flag ? `-${flag.short}, ` : "    ";
    return `  ${`${short}--${name} ${flag.value}`.padEnd(30)} ${flag.help} [${flag.env}]`;
  });
  return [
    "Usage: loyalty-mock [options]",
    "",
    "A local stand-in for six operations of a loyalty and promotions service.",
    "",
    "Options (each overrides its environment variable, shown in brackets, which overrides .env):",
    ...lines,
    `  ${"-h, --help".padEnd(30)} show this help`,
    `  ${"    --version".padEnd(30)} print the version`,
    "",
    "Other settings come from the environment or .env only; README.md lists them all.",
    "",
  ].join("\n");
}

export function version(): string {
  const manifest = new URL("../package.json", import.meta.url);
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}
