import { readFileSync } from "node:fs";
import { SETTINGS } from "../config/settings.js";
import { problemOf, type Row, rowsOf, variableOf } from "../config/settings-table.js";
import { OPERATION_COUNT } from "../http/operations/table.js";
import { CHECK, type CheckCommand, parseCheck } from "./check/command.js";
import { type Command, type Flag, HELP, helpOf as helpText, nearestName, parseCommand } from "./flags.js";
import { MCP, type McpCommand, parseMcp } from "./mcp/command.js";
import { PLAY, type PlayCommand, parsePlay } from "./play.js";
import { parseTrigger, TRIGGER, type TriggerCommand } from "./trigger/command.js";
import { UsageError } from "./usage-error.js";
import { parseVerify, VERIFY, type VerifyCommand } from "./verify/command.js";
import { parseWait, WAIT, type WaitCommand } from "./wait.js";
import { LISTEN, type ListenCommand, parseListen } from "./webhooks-listen.js";

/**
 * The command line of the `loyalty-mock` bin. Each flag sets one setting (docs/reference/settings.md), so a flag beats
 * the environment variable, which beats the `--settings-file`. The flags are the settings table's rows that have one.
 */
type Flagged = Row<unknown> & { flag: NonNullable<Row<unknown>["flag"]> };
const FLAGGED: Flagged[] = rowsOf(SETTINGS).flatMap(([, row]) =>
  row.flag ? [{ ...row, flag: row.flag }] : [],
);

export type CommandLine =
  | { command: "help"; text: string }
  | { command: "version" }
  | WaitCommand
  | ListenCommand
  | VerifyCommand
  | PlayCommand
  | TriggerCommand
  | CheckCommand
  | McpCommand
  /** `env`: the settings the flags give, by base name (PORT), to lay over the environment. */
  | { command: "serve"; env: Record<string, string>; settingsFile?: string };

export { UsageError };

/** A row's help line, with its default where it has one. */
const helpOf = (row: Row<unknown>) => (row.default === undefined ? row.help : `${row.help} (${row.default})`);

/** The server's own flags: one for each flagged setting (with its variable), the settings file, help, version. */
const SERVE_FLAGS: Flag[] = [
  ...FLAGGED.map((row) => ({ ...row.flag, help: `${helpOf(row)} [${variableOf(row)}]` })),
  {
    name: "settings-file",
    value: "<file>",
    help: "read settings from this file (LOYALTY_MOCK_PORT=4000 lines); no .env is read unless named",
  },
  HELP,
  { name: "version", help: "print the version and exit" },
];

const SUBCOMMANDS = [WAIT, LISTEN, VERIFY, PLAY, TRIGGER, CHECK, MCP];

const SERVE: Command = {
  name: "",
  usage: ["[options]", ...SUBCOMMANDS.flatMap((command) => command.usage)],
  about:
    `A local stand-in for ${OPERATION_COUNT} operations of a loyalty and promotions service. It prints\n` +
    "`loyalty-mock listening on <url>` on stderr once it listens, whatever the log level.",
  flags: SERVE_FLAGS,
  more: [
    "Each option overrides its environment variable (in brackets), which overrides the --settings-file.",
    "Other settings come from the environment or the --settings-file only (docs/reference/settings.md):",
    ...rowsOf(SETTINGS).flatMap(([, row]) =>
      row.flag ? [] : [`  ${variableOf(row).padEnd(38)} ${helpOf(row)}`],
    ),
    "",
    "Commands (loyalty-mock <command> --help for each one's options):",
    `  ${"wait".padEnd(18)} wait until a server answers its health check (for scripts and CI)`,
    `  ${"webhooks listen".padEnd(18)} a receiver that prints each webhook notification it gets`,
    `  ${"verify".padEnd(18)} compare loyalty-mock with your sandbox project (its key pair from`,
    `  ${"".padEnd(18)} LOYALTY_MOCK_VERIFY_APP_ID and LOYALTY_MOCK_VERIFY_APP_TOKEN), or with a recording of it`,
    `  ${"play".padEnd(18)} play a customer's story (a scenario) through the operations of a running server`,
    `  ${"trigger".padEnd(18)} cause one webhook notification on demand and wait for its delivery (--list: every type)`,
    `  ${"check".padEnd(18)} check fixtures folders, scenarios and settings files offline, with an exit status`,
    `  ${"mcp".padEnd(18)} a Model Context Protocol server on stdio, for coding agents to drive the stand-in`,
  ],
  examples: [
    "loyalty-mock                                   # the demo dataset on http://127.0.0.1:3000",
    "loyalty-mock --port 0 --admin-token s3cret     # a free port, the control API behind a token",
    "LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE=0 loyalty-mock --seed tests --freeze-clock 2026-01-01",
  ],
};

/**
 * `--env-file`, the name of this flag up to 0.8.0, refused in words. Node reads `--env-file` itself wherever it is
 * on the command line, even after the script's name: with a file that exists, it passes the flag on (and loads
 * nothing), so this says what to type instead; with a file that does not, Node exits 9 ("node: ci.env: not
 * found") before loyalty-mock runs. The flag took its new name so that neither can happen.
 */
function refuseEnvFile(args: readonly string[]): void {
  const at = args.findIndex((arg) => arg === "--env-file" || arg.startsWith("--env-file="));
  if (at === -1) return;
  const arg = args[at] as string;
  const file = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : (args[at + 1] ?? "<file>");
  throw new UsageError(
    `--env-file is now --settings-file (Node reads --env-file itself); run loyalty-mock --settings-file ${file}`,
  );
}

/** Each command by the word typed first to run it (`webhooks listen` is two words; its parser reads the second). */
const COMMANDS: Record<string, (args: readonly string[]) => CommandLine> = {
  wait: parseWait,
  webhooks: parseListen,
  verify: parseVerify,
  play: parsePlay,
  trigger: parseTrigger,
  check: parseCheck,
  mcp: parseMcp,
};

/**
 * A first word that is no flag and close to a command's (`paly`) is that command mistyped, said as a mistyped
 * flag is; any other word is left to the parser, which refuses it as an argument the server does not take.
 */
function refuseMistypedCommand(first: string | undefined): void {
  if (first === undefined || first.startsWith("-")) return;
  const meant = nearestName(Object.keys(COMMANDS), first);
  if (meant !== undefined) throw new UsageError(`Unknown command '${first}'; did you mean ${meant}?`);
}

export function parseCommandLine(args: readonly string[]): CommandLine {
  const command = args[0] === undefined ? undefined : COMMANDS[args[0]];
  if (command) return command(args.slice(1));
  refuseEnvFile(args);
  refuseMistypedCommand(args[0]);
  const parsed = parseCommand(SERVE, args, false);
  if (parsed === "help") return { command: "help", text: usage() };
  const { values, typed } = parsed;
  if (values.version) return { command: "version" };

  const env: Record<string, string> = {};
  for (const row of FLAGGED) {
    const value = values[row.flag.name];
    if (typeof value !== "string") continue;
    // Checked here as well as with the rest of the settings, so the message names the flag as the user typed it.
    const check = row.schema.safeParse(value);
    if (!check.success)
      throw new UsageError(problemOf(row, typed[row.flag.name] as string, value, check.error));
    env[row.env] = value;
  }
  const settingsFile = values["settings-file"];
  return { command: "serve", env, ...(typeof settingsFile === "string" && { settingsFile }) };
}

/** `loyalty-mock --help`: the server's options with their variables, the other settings, and the commands. */
export function usage(): string {
  return helpText(SERVE);
}

export function version(): string {
  const manifest = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}
