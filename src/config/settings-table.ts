import { z } from "zod";
import type { LogLevel } from "../platform/logger.js";
import type { StartOptions } from "./start-options.js";

/**
 * The shape of the settings table (settings.ts) and the reading of its rows. The types tie each row to the option
 * it fills: a row's schema and default must produce that option's type, so a row can never hand startServer a
 * value of the wrong kind, and a group (the limits) is complete only when each of its keys has a row.
 */

/**
 * What the rows fill: startServer's options, the log level, from which main makes startServer's logger, whether
 * main stops with the process that started it, and the file it tells its address in (the image's health check).
 */
type Options = StartOptions & { logLevel?: LogLevel; exitWithParent?: boolean; healthFile?: string };
/** Options that group several settings, one row for each of their keys. */
type Group = "connectionLimits" | "inputLimits" | "caps";
type Inner<G extends Group> = Required<NonNullable<Options[G]>>;

/** An option (`port`) or a key of a group (`connectionLimits.headerBytes`). */
type OptionPath = Exclude<keyof Options, Group> | { [G in Group]: `${G}.${keyof Inner<G> & string}` }[Group];

type ValueAt<P> = P extends `${infer G extends Group}.${infer K}`
  ? K extends keyof Inner<G>
    ? Inner<G>[K]
    : never
  : P extends keyof Options
    ? NonNullable<Options[P]>
    : never;

export interface Row<V> {
  /** The setting's base name: its variable is this behind ENV_PREFIX (see variableOf). */
  readonly env: string;
  /** The command-line flag that sets it, for the settings that have one. */
  readonly flag?: { readonly name: string; readonly short?: string; readonly value: string };
  /** One line for --help. */
  readonly help: string;
  /** Reads the variable's text into the option's value, refusing what the option cannot take. */
  readonly schema: z.ZodType<V>;
  /** Absent: the option stays unset unless given. */
  readonly default?: V;
}

export type SettingsTable = { readonly [P in OptionPath]?: Row<ValueAt<P>> };

type Value<T, P extends keyof T> = T[P] extends { default: unknown } ? ValueAt<P> : ValueAt<P> | undefined;

/** The settings by base name (PORT for LOYALTY_MOCK_PORT), as readConfig returns them. */
export type TableConfig<T extends SettingsTable> = {
  -readonly [P in keyof T as T[P] extends { env: infer E extends string } ? E : never]: Value<T, P>;
};

type Top<P> = P extends `${infer G}.${string}` ? G : P;

/** The settings by option name, each group an object of its keys (undefined where a key has no row). */
export type TableSettings<T extends SettingsTable> = {
  -readonly [K in Top<keyof T>]: K extends Group
    ? {
        -readonly [L in keyof Inner<K>]: `${K}.${L & string}` extends infer P extends keyof T
          ? Value<T, P>
          : undefined;
      }
    : K extends keyof T
      ? Value<T, K>
      : never;
};

/** Every row of a table, with the option it fills. */
export function rowsOf(table: SettingsTable): [option: string, row: Row<unknown>][] {
  return Object.entries(table) as [string, Row<unknown>][];
}

/**
 * The one prefix of the server's variables, so that an application's own PORT, HOST or LOG_LEVEL (in its CI
 * environment, say) never configures the mock. Every row's variable is derived here, rows added later included.
 */
const ENV_PREFIX = "LOYALTY_MOCK_";

/** The variable that sets a row: LOYALTY_MOCK_PORT for PORT. */
export const variableOf = (row: Row<unknown>): string => `${ENV_PREFIX}${row.env}`;

/** What a row's schema accepts, as JSON Schema; undefined where zod cannot say it. */
export function inputSchemaOf(row: Row<unknown>): z.core.JSONSchema.BaseSchema | undefined {
  try {
    return z.toJSONSchema(row.schema, {
      io: "input",
      unrepresentable: "any",
    }) as z.core.JSONSchema.BaseSchema;
  } catch {
    return undefined;
  }
}

/** What a row accepts, in words, for the one line that refuses a bad value. */
function accepted(row: Row<unknown>, issue: z.core.$ZodIssue): string {
  // A refinement's message is written to say what is accepted.
  if (issue.code === "custom") return issue.message;
  const schema = inputSchemaOf(row);
  if (schema === undefined) return issue.message;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(", ")}`;
  const { minimum: min, maximum: max } = schema;
  if (schema.type === "integer" && min !== undefined)
    return max === undefined || max >= Number.MAX_SAFE_INTEGER
      ? `a whole number, ${min} or more`
      : `a whole number from ${min} to ${max}`;
  // zod's own words ("Too big: expected string to have <=200 characters") would follow "expected" badly.
  const { minLength: least = 0, maxLength: most } = schema;
  if (schema.type === "string" && most !== undefined) return `a text of ${least} to ${most} characters`;
  if (schema.type === "string" && least > 0)
    return `a text of at least ${least} character${least === 1 ? "" : "s"}`;
  return issue.message;
}

/** The one line refusing a value: the flag or variable it came from, the value, and what is accepted. */
export function problemOf(row: Row<unknown>, from: string, text: string, error: z.ZodError): string {
  const issue = error.issues[0] as z.core.$ZodIssue;
  return `Invalid value for ${from}: ${JSON.stringify(text)}; expected ${accepted(row, issue)}`;
}

/** Where a row's text was found: a flag or its variable. */
interface Found {
  text: string;
  from: string;
}

function find(
  row: Row<unknown>,
  env: NodeJS.ProcessEnv,
  flags: Record<string, string>,
  labels: Record<string, string>,
): Found | undefined {
  const given = (text: string | undefined) => text !== undefined && text !== "";
  const flag = flags[row.env];
  if (given(flag) && row.flag) return { text: flag as string, from: `--${row.flag.name}` };
  const name = variableOf(row);
  if (given(env[name])) return { text: env[name] as string, from: labels[name] ?? name };
  return undefined;
}

/**
 * Each row's value from its flag (by base name), else its variable; empty counts as unset. The unprefixed names
 * before 0.5.0 (PORT, LOG_LEVEL, MOCK_ADMIN_TOKEN, ...) are no longer read since 0.7.0: an application's own PORT
 * never configures the mock.
 * Each problem is one line naming the flag or variable, the value and what is accepted; `warnings` name the
 * prefixed variables that set nothing (a typo would otherwise pass unseen;
 * only warned of, so that a newer version's variable does not stop an older server). `labels` name a variable
 * otherwise, where it came from somewhere the user should be told of (`LOYALTY_MOCK_PORT (in ci.env)`). `others`
 * are prefixed variables that are read elsewhere, so no typo either.
 */
export function readRows(
  table: SettingsTable,
  env: NodeJS.ProcessEnv,
  flags: Record<string, string> = {},
  labels: Record<string, string> = {},
  others: ReadonlySet<string> = new Set(),
): { config: Record<string, unknown>; problems: string[]; warnings: string[] } {
  const config: Record<string, unknown> = {};
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const [, row] of rowsOf(table)) {
    const found = find(row, env, flags, labels);
    if (found === undefined) {
      if (row.default !== undefined) config[row.env] = row.default;
      continue;
    }
    const result = row.schema.safeParse(found.text);
    if (result.success) config[row.env] = result.data;
    else problems.push(problemOf(row, found.from, found.text, result.error));
  }
  const known = new Set(rowsOf(table).map(([, row]) => variableOf(row)));
  for (const name of Object.keys(env))
    if (name.startsWith(ENV_PREFIX) && !known.has(name) && !others.has(name))
      warnings.push(`${labels[name] ?? name} is not a setting; ignored`);
  return { config, problems, warnings };
}

/** Options from values by variable name, a group's keys gathered into one object. */
export function optionsFrom(table: SettingsTable, config: Record<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [option, row] of rowsOf(table)) {
    const value = config[row.env];
    if (value === undefined) continue;
    const [group, key] = option.split(".") as [string, string | undefined];
    if (key === undefined) options[option] = value;
    else options[group] = { ...(options[group] as object | undefined), [key]: value };
  }
  return options;
}
