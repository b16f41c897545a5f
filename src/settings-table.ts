import type { z } from "zod";
import type { LogLevel } from "./platform/logger.js";
import type { StartOptions } from "./server.js";

/**
 * The shape of the settings table (settings.ts) and the reading of its rows. The types tie each row to the option
 * it fills: a row's schema and default must produce that option's type, so a row can never hand startServer a
 * value of the wrong kind, and a group (the limits) is complete only when each of its keys has a row.
 */

/** What the rows fill: startServer's options, and the log level, from which main makes startServer's logger. */
type Options = StartOptions & { logLevel?: LogLevel };
/** Options that group several settings, one row for each of their keys. */
export type Group = "connectionLimits" | "inputLimits" | "caps";
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
  /** The environment variable (and .env line) that sets it. */
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

/** The settings by environment variable name, as readConfig returns them. */
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
 * Each row's value from its variable, an empty variable counting as unset; the problems name the variable, one
 * per problem, in the table's order.
 */
export function readRows(
  table: SettingsTable,
  env: NodeJS.ProcessEnv,
): { config: Record<string, unknown>; problems: string[] } {
  const config: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [, row] of rowsOf(table)) {
    const text = env[row.env];
    if (text === undefined || text === "") {
      if (row.default !== undefined) config[row.env] = row.default;
      continue;
    }
    const result = row.schema.safeParse(text);
    if (result.success) config[row.env] = result.data;
    else problems.push(...result.error.issues.map((issue) => `${row.env}: ${issue.message}`));
  }
  return { config, problems };
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
