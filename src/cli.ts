import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { SETTINGS } from "./settings.js";
import { type Row, rowsOf } from "./settings-table.js";

/**
 * The command line of the `loyalty-mock` bin. Each flag sets one setting of the environment (README "Settings"),
 * so a flag beats the environment variable, which beats `.env`. The flags are the settings table's rows that
 * have one.
 */
type Flagged = Row<unknown> & { flag: NonNullable<Row<unknown>["flag"]> };
const FLAGGED: Flagged[] = rowsOf(SETTINGS).flatMap(([, row]) =>
  row.flag ? [{ ...row, flag: row.flag }] : [],
);

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
    FLAGGED.map(({ flag }) => [
      flag.name,
      { type: "string" as const, ...(flag.short !== undefined && { short: flag.short }) },
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
  for (const row of FLAGGED) {
    const value = values[row.flag.name];
    if (typeof value !== "string") continue;
    // Checked here as well as with the rest of the settings, so the message names the flag the user typed.
    const check = row.schema.safeParse(value);
    if (!check.success)
      throw new UsageError(`Invalid value for --${row.flag.name}: ${check.error.issues[0]?.message}`);
    env[row.env] = value;
  }
  return { command: "serve", env };
}

/** A row's help line, with its default where it has one. */
const helpOf = (row: Row<unknown>) => (row.default === undefined ? row.help : `${row.help} (${row.default})`);

function flagLine(row: Flagged): string {
  const { name, short, value } = row.flag;
  const shortName = short === undefined ? "    " : `-${short}, `;
  return `  ${`${shortName}--${name} ${value}`.padEnd(30)} ${helpOf(row)} [${row.env}]`;
}

export function usage(): string {
  const others = rowsOf(SETTINGS).flatMap(([, row]) =>
    row.flag ? [] : [`  ${row.env.padEnd(30)} ${helpOf(row)}`],
  );
  return [
    "Usage: loyalty-mock [options]",
    "",
    "A local stand-in for six operations of a loyalty and promotions service.",
    "",
    "Options (each overrides its environment variable, shown in brackets, which overrides .env):",
    ...FLAGGED.map(flagLine),
    `  ${"-h, --help".padEnd(30)} show this help`,
    `  ${"    --version".padEnd(30)} print the version`,
    "",
    'Other settings come from the environment or .env only (README.md, "Settings"):',
    ...others,
    "",
  ].join("\n");
}

export function version(): string {
  const manifest = new URL("../package.json", import.meta.url);
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}
