import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { SETTINGS } from "../config/settings.js";
import { problemOf, type Row, rowsOf, variableOf } from "../config/settings-table.js";
import { UsageError } from "./usage-error.js";
import { parseVerify, type VerifyCommand } from "./verify/command.js";
import { parseWait, type WaitCommand } from "./wait.js";
import { type ListenCommand, parseListen } from "./webhooks-listen.js";

/**
 * The command line of the `loyalty-mock` bin. Each flag sets one setting (docs/reference/settings.md), so a flag beats
 * the environment variable, which beats the `--env-file`. The flags are the settings table's rows that have one.
 */
type Flagged = Row<unknown> & { flag: NonNullable<Row<unknown>["flag"]> };
const FLAGGED: Flagged[] = rowsOf(SETTINGS).flatMap(([, row]) =>
  row.flag ? [{ ...row, flag: row.flag }] : [],
);

export type CommandLine =
  | { command: "help" }
  | { command: "version" }
  | WaitCommand
  | ListenCommand
  | VerifyCommand
  /** `env`: the settings the flags give, by base name (PORT), to lay over the environment. */
  | { command: "serve"; env: Record<string, string>; envFile?: string };

export { UsageError };

export function parseCommandLine(args: readonly string[]): CommandLine {
  if (args[0] === "wait") return parseWait(args.slice(1));
  if (args[0] === "webhooks") return parseListen(args.slice(1));
  if (args[0] === "verify") return parseVerify(args.slice(1));
  const options = Object.fromEntries(
    FLAGGED.map(({ flag }) => [
      flag.name,
      { type: "string" as const, ...(flag.short !== undefined && { short: flag.short }) },
    ]),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        ...options,
        "env-file": { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { command: "help" };
  if (values.version) return { command: "version" };

  const env: Record<string, string> = {};
  for (const row of FLAGGED) {
    const value = values[row.flag.name];
    if (typeof value !== "string") continue;
    // Checked here as well as with the rest of the settings, so the message names the flag the user typed.
    const check = row.schema.safeParse(value);
    if (!check.success) throw new UsageError(problemOf(row, `--${row.flag.name}`, value, check.error));
    env[row.env] = value;
  }
  const envFile = values["env-file"];
  return { command: "serve", env, ...(typeof envFile === "string" && { envFile }) };
}

/** A row's help line, with its default where it has one. */
const helpOf = (row: Row<unknown>) => (row.default === undefined ? row.help : `${row.help} (${row.default})`);

function flagLine(row: Flagged): string {
  const { name, short, value } = row.flag;
  const shortName = short === undefined ? "    " : `-${short}, `;
  return `  ${`${shortName}--${name} ${value}`.padEnd(30)} ${helpOf(row)} [${variableOf(row)}]`;
}

export function usage(): string {
  const others = rowsOf(SETTINGS).flatMap(([, row]) =>
    row.flag ? [] : [`  ${variableOf(row).padEnd(38)} ${helpOf(row)}`],
  );
  return [
    "Usage: loyalty-mock [options]",
    "       loyalty-mock wait (--url <url> | --log <file>) [--timeout <seconds>]",
    "       loyalty-mock webhooks listen [listen options]",
    "       loyalty-mock verify (--config <file> | --replay <recording>) [verify options]",
    "",
    "A local stand-in for six operations of a loyalty and promotions service. It prints",
    "`loyalty-mock listening on <url>` on stderr once it listens, whatever the log level.",
    "",
    "Options (each overrides its environment variable, shown in brackets, which overrides --env-file):",
    ...FLAGGED.map(flagLine),
    `  ${"    --env-file <file>".padEnd(30)} read settings from this file (no .env is read unless named)`,
    `  ${"-h, --help".padEnd(30)} show this help`,
    `  ${"    --version".padEnd(30)} print the version`,
    "",
    'Other settings come from the environment or --env-file only (README.md, "Settings"):',
    ...others,
    "",
    "wait: exits 0 once <url>/__mock/health answers 200 (sending LOYALTY_MOCK_ADMIN_TOKEN when set), 1 after",
    "--timeout seconds (30) without it. --log <file>: the server's stderr; waits for its address there, then for",
    "its health, and prints the address.",
    "",
    "webhooks listen [--port <port>] [--secret <secret>] [--host <address>]: a receiver for webhook notifications",
    'on 127.0.0.1:4000 by default, printing each as it arrives on stdout, "verified", or "BAD SIGNATURE" (answered',
    "401) when its x-voucherify-signature is not that of --secret.",
    "",
    "verify (--config <file> | --replay <recording>) [--record <file>] [--json <file>] [--mock <url>]",
    "[--allow-writes]: runs one scripted scenario of all six operations against the target of the config (your",
    "sandbox project) and against loyalty-mock (a fresh one in this process, or --mock <url>), and compares the",
    "answers. --record keeps the target's answers (no credentials) for --replay, which needs no target. Secrets may",
    "come from LOYALTY_MOCK_VERIFY_APP_ID and LOYALTY_MOCK_VERIFY_APP_TOKEN. Exit 0 all matched, 1 a difference,",
    "2 a usage or config error, 3 the target unreachable or its call budget used up.",
    "",
  ].join("\n");
}

export function version(): string {
  const manifest = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}
