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

/** The name nearest to one typed, when one is near enough to be what was meant (`--prot`, `paly`). */
export function nearestName(names: readonly string[], typed: string): string | undefined {
  let best: { name: string; cost: number } | undefined;
  for (const name of names) {
    const cost = distance(typed, name);
    if (cost <= (name.length < 4 ? 1 : 2) && (best === undefined || cost < best.cost)) best = { name, cost };
  }
  return best?.name;
}

/** The command's flag nearest to an unknown one, when one is near enough to be what was meant. */
function nearest(command: Command, typed: string): string | undefined {
  const bare = typed.replace(/^-+/, "").replace(/=.*$/, "");
  const name = nearestName(
    command.flags.map((flag) => flag.name),
    bare,
  );
  return name && `--${name}`;
}

/** parseArgs's own message, with the command named and the nearest flag suggested for an unknown one. */
function usageError(command: Command, error: Error & { code?: string }): UsageError {
  const prefix = prefixOf(command);
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

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  /** The arguments that are not flags (`play <scenario>`). */
  positionals: string[];
  /** Each flag given, by name, as it was typed (`-p` or `--port`), for the line that refuses its value. */
  typed: Record<string, string>;
}

/** The flags and the arguments that are not flags (`play <scenario>`), or "help". */
export function parseCommand(
  command: Command,
  args: readonly string[],
  allowPositionals = true,
): Parsed | "help" {
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
  const parsed = parseOrRefuse(command, () =>
    parseArgs({ args: valuesJoined(command, args), options, strict: true, allowPositionals, tokens: true }),
  );
  const typed: Record<string, string> = {};
  for (const token of parsed.tokens) {
    if (token.kind !== "option") continue;
    typed[token.name] = token.rawName;
    // An empty value set from the environment means unset; typed on the command line it is a mistake, never
    // the default it would otherwise fall back to (`--port ''` listened on 3000).
    if (token.value !== undefined && token.value.trim() === "")
      throw new UsageError(`Invalid value for ${token.rawName}: it is empty`, command);
  }
  return { values: parsed.values, positionals: [...parsed.positionals], typed };
}

function parseOrRefuse<T>(command: Command, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw usageError(command, error as Error & { code?: string });
  }
}

const prefixOf = (command: Command) => (command.name === "" ? "" : `${command.name}: `);

/**
 * The arguments with each flag's value settled before parseArgs reads them, so that its refusals read as the
 * others do, naming the flag as typed. A flag that takes a value, with nothing after it or with a flag after it
 * (any `--` word, or one of the command's short flags), is missing its value. Followed by a word that starts with
 * a dash and is no flag (`--port -1`, `--admin-token -x`), it takes that word, as the user meant: parseArgs would
 * call it ambiguous, in three lines.
 */
function valuesJoined(command: Command, args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at] as string;
    if (arg === "--") return [...joined, ...args.slice(at)];
    const flag = command.flags.find(
      ({ name, short, value }) => value !== undefined && (arg === `--${name}` || arg === `-${short}`),
    );
    const next = args[at + 1];
    if (flag === undefined) joined.push(arg);
    else if (next === undefined || next.startsWith("--") || isShortFlag(command, next))
      throw new UsageError(
        `${prefixOf(command)}Missing value for ${arg}; expected ${arg} ${flag.value}`,
        command,
      );
    else if (next.startsWith("-")) {
      // `--port=-1` and `-p-1` are parseArgs's own ways to give such a value.
      joined.push(arg.startsWith("--") ? `${arg}=${next}` : `${arg}${next}`);
      at++;
    } else joined.push(arg);
  }
  return joined;
}

const isShortFlag = (command: Command, arg: string) =>
  command.flags.some((flag) => flag.short !== undefined && arg === `-${flag.short}`);
