import { parseArgs } from "node:util";
import { UsageError } from "./usage-error.js";

/**
 * The flags of one command of the `loyalty-mock` bin, declared once: parseArgs reads them, and its `--help` is
 * written from the same list, so the help can never name a flag the parser refuses or leave one out.
 */
export interface Flag {
  readonly name: string;
  readonly short?: string;
  /** The value's placeholder (`<url>`); a flag without one is a switch. */
  readonly value?: string;
  readonly help: string;
}

export interface Command {
  /** As typed after `loyalty-mock` (`wait`, `webhooks listen`); empty for the server itself. */
  readonly name: string;
  /** The usage lines, without the leading `loyalty-mock`. */
  readonly usage: readonly string[];
  /** What it does, in a sentence or two. */
  readonly about: string;
  readonly flags: readonly Flag[];
  /** Shell lines a user can copy. */
  readonly examples: readonly string[];
  /** Anything more the help says after the flags (exit statuses, other settings). */
  readonly more?: readonly string[];
}

export const HELP: Flag = { name: "help", short: "h", help: "show this help and exit" };

const leftOf = ({ name, short, value }: Flag) =>
  `${short === undefined ? "    " : `-${short}, `}--${name}${value === undefined ? "" : ` ${value}`}`;

function flagLine(flag: Flag, width = 30): string {
  return `  ${leftOf(flag).padEnd(width)} ${flag.help}`;
}

export function helpOf(command: Command): string {
  return [
    ...command.usage.map((line, index) =>
      `${index === 0 ? "Usage:" : "      "} loyalty-mock ${line}`.trimEnd(),
    ),
    "",
    command.about,
    "",
    "Options:",
    ...command.flags.map((flag) =>
      flagLine(flag, Math.max(...command.flags.map((one) => leftOf(one).length))),
    ),
    ...(command.more === undefined ? [] : ["", ...command.more]),
    "",
    command.examples.length === 1 ? "Example:" : "Examples:",
    ...command.examples.map((line) => `  ${line}`),
    "",
  ].join("\n");
}

/** The edit distance of two short texts, a swap of neighbours counting one (`--prot`), for "did you mean". */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => (d[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      let cost = Math.min(
        at(i - 1, j) + 1,
        at(i, j - 1) + 1,
        at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        cost = Math.min(cost, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = cost;
    }
  return at(a.length, b.length);
}

/** The command's flag nearest to an unknown one, when one is near enough to be what was meant. */
function nearest(command: Command, typed: string): string | undefined {
  const bare = typed.replace(/^-+/, "").replace(/=.*$/, "");
  let best: { name: string; cost: number } | undefined;
  for (const { name } of command.flags) {
    const cost = distance(bare, name);
    if (cost <= (name.length < 4 ? 1 : 2) && (best === undefined || cost < best.cost)) best = { name, cost };
  }
  return best && `--${best.name}`;
}

/** parseArgs's own message, with the command named and the nearest flag suggested for an unknown one. */
function usageError(command: Command, error: Error & { code?: string }): UsageError {
  const prefix = command.name === "" ? "" : `${command.name}: `;
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const typed = /'([^']+)'/.exec(error.message)?.[1] ?? "";
    const near = nearest(command, typed);
    return new UsageError(
      `${prefix}Unknown option '${typed}'${near ? `; did you mean ${near}?` : ""}`,
      command,
    );
  }
  return new UsageError(`${prefix}${error.message}`, command);
}

/** The flags given, or "help" when --help (or -h) is among them. */
export function parseFlags(
  command: Command,
  args: readonly string[],
): Record<string, string | boolean | undefined> | "help" {
  const parsed = parseCommand(command, args, false);
  return parsed === "help" ? parsed : parsed.values;
}

/** The flags and the arguments that are not flags (`play <scenario>`), or "help". */
export function parseCommand(
  command: Command,
  args: readonly string[],
  allowPositionals = true,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } | "help" {
  const options = Object.fromEntries(
    command.flags.map((flag) => [
      flag.name,
      {
        type: flag.value === undefined ? ("boolean" as const) : ("string" as const),
        ...(flag.short !== undefined && { short: flag.short }),
      },
    ]),
  );
  // Asked for help, a user gets it whatever else is on the line.
  if (args.some((arg) => arg === "--help" || arg === "-h")) return "help";
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, strict: true, allowPositionals });
    return { values, positionals };
  } catch (error) {
    throw usageError(command, error as Error & { code?: string });
  }
}
