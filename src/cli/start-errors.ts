import { ConfigError, SETTINGS } from "../config/settings.js";
import { type Row, variableOf } from "../config/settings-table.js";
import type { StartOptions } from "../config/start-options.js";
import { StateFileError } from "../persistence/state-file.js";
import { FixtureError } from "../platform/fixtures.js";
import { UsageError } from "./usage-error.js";

/**
 * Why the bin could not start, as a script reads it: one line per problem, naming the setting, the value and
 * what is accepted, and exit status 2 for anything the user's settings, flags, fixtures or state file caused; 1
 * with the error's own text for anything else (a bug). Never a stack trace: a CI log should show the cause, not
 * the code path.
 */
export interface StartFailure {
  lines: string[];
  status: number;
}

/** What the user set a row with: the flag they typed, else the variable (and the file it was in). */
export type NameOf = (row: Row<unknown>) => string;

export function startFailure(
  error: unknown,
  options: StartOptions = {},
  nameOf: NameOf = variableOf,
): StartFailure {
  const bad = (row: Row<unknown>, value: unknown, problem: string): StartFailure => ({
    lines: [`Invalid value for ${nameOf(row)}: ${JSON.stringify(String(value))}; ${problem}`],
    status: 2,
  });
  if (error instanceof ConfigError) return { lines: [...error.problems], status: 2 };
  if (error instanceof UsageError) return { lines: [error.message], status: 2 };
  if (error instanceof FixtureError && options.fixturesDir !== undefined)
    return bad(SETTINGS.fixturesDir, options.fixturesDir, `${error.message}; see README "Fixtures"`);
  if (error instanceof StateFileError) {
    const expected = /cannot be written/.test(error.message)
      ? "a file in an existing folder this user may write"
      : "a state file this server wrote (delete it to start from the fixtures)";
    return bad(SETTINGS.stateFile, error.file, `${error.message}; expected ${expected}`);
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const listening = typeof code === "string" ? listenFailure(code, options, bad) : undefined;
  if (listening) return listening;
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { lines: [`could not start. ${text}`], status: 1 };
}

type Bad = (row: Row<unknown>, value: unknown, problem: string) => StartFailure;

/** Listening errors that a setting explains: the port taken or forbidden, an address not of this machine. */
function listenFailure(code: string, options: StartOptions, bad: Bad): StartFailure | undefined {
  if (code === "EADDRINUSE" || code === "EACCES")
    return bad(
      SETTINGS.port,
      options.port,
      `cannot listen on it (${code}); expected a free port this user may open, or 0 for any free port`,
    );
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAFNOSUPPORT")
    return bad(
      SETTINGS.host,
      options.host,
      `cannot listen on it (${code}); expected an address of this machine, such as 127.0.0.1 or 0.0.0.0`,
    );
  return undefined;
}
