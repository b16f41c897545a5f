import { readFileSync } from "node:fs";
import { ConfigError } from "./settings.js";

/**
 * The file `--settings-file` names: the server's settings written as `LOYALTY_MOCK_PORT=4000` lines (the format of
 * a `.env` file, so .env.example is one). Not `--env-file`: Node takes that flag from any place on its command
 * line, even after the script's name, and exits 9 when the file is missing before loyalty-mock runs. Read only when
 * named, never from the working directory on its own: that folder is usually the application's, and its `.env`
 * holds the application's PORT, HOST and LOG_LEVEL, not the mock's.
 *
 * Accepted: `NAME=value` (optionally after `export `), values bare (an unquoted ` #` starts a comment), in single
 * quotes (taken as written) or in double quotes (`\n` is a newline); `#` comments and blank lines. Any other line
 * refuses the file, naming the line: Node's own reader skips such a line and, after an unclosed quote, every line
 * that follows it, without a word.
 */
const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

function unquoted(raw: string): string | undefined {
  const quote = raw[0];
  if (quote === '"' || quote === "'") {
    const end = raw.indexOf(quote, 1);
    if (end === -1 || !/^\s*(#.*)?$/.test(raw.slice(end + 1))) return undefined;
    const inner = raw.slice(1, end);
    return quote === '"' ? inner.replaceAll("\\n", "\n") : inner;
  }
  return raw.replace(/\s+#.*$/, "").trim();
}

/** One line that does not parse, by its number (from 1), in the words the refusal uses. */
export interface SettingsLineProblem {
  line: number;
  problem: string;
}

/**
 * A settings file's text read line by line: the values by name, the line each came from (the last, when a name
 * is given twice), and every line that does not parse. readSettingsFile refuses the file at the first such line;
 * `loyalty-mock check` names them all.
 */
export function readSettingsText(text: string): {
  values: Record<string, string>;
  lines: Record<string, number>;
  problems: SettingsLineProblem[];
} {
  const values: Record<string, string> = {};
  const lines: Record<string, number> = {};
  const problems: SettingsLineProblem[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const match = LINE.exec(trimmed);
    const value = match ? unquoted(match[2] as string) : undefined;
    if (match === null || value === undefined) {
      problems.push({
        line: index + 1,
        problem: `line ${index + 1} does not parse: ${JSON.stringify(line)}; expected NAME=value, a # comment or a blank line`,
      });
      continue;
    }
    values[match[1] as string] = value;
    lines[match[1] as string] = index + 1;
  }
  return { values, lines, problems };
}

export function readSettingsFile(file: string): Record<string, string> {
  const problem = (what: string) =>
    new ConfigError([`Invalid value for --settings-file: ${JSON.stringify(file)}; ${what}`]);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw problem(`cannot be read (${(error as NodeJS.ErrnoException).code}); expected a readable file`);
  }
  const read = readSettingsText(text);
  const [first] = read.problems;
  if (first !== undefined) throw problem(first.problem);
  return read.values;
}
