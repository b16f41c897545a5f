import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SETTINGS_PAGE, settingsPage } from "../../scripts/settings-docs.js";
import { usage } from "../../src/cli/command-line.js";
import { SETTINGS } from "../../src/config/settings.js";
import { rowsOf, variableOf } from "../../src/config/settings-table.js";

/**
 * The settings table (src/config/settings.ts) is what the server reads; docs/reference/settings.md (generated from
 * the table by `npm run docs:settings`), .env.example, docs/reference/cli.md and --help are what users read. A row
 * added, renamed or given a new default without its docs fails here. Users read the variables by their prefixed
 * names (LOYALTY_MOCK_PORT), which the table derives.
 */
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const rows = rowsOf(SETTINGS).map(([, row]) => ({ ...row, env: variableOf(row) }));
const shown = (value: unknown) => String(value);
const sorted = (names: Iterable<string>) => [...names].sort();

/** The cells of each row of the Markdown tables in the section of `file` under `heading`. */
function tableRows(file: string, heading: string): string[][] {
  const page = read(file);
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start, `${file} has a "${heading}" section`).toBeGreaterThan(-1);
  const end = page.indexOf("\n## ", start + 1);
  return page
    .slice(start, end === -1 ? undefined : end)
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("|---"))
    .map((line) => line.split(" | ").map((cell) => cell.replace(/^\| ?| ?\|$/g, "").trim()));
}

describe("the settings' documentation", () => {
  it("docs/reference/settings.md is what npm run docs:settings writes", () => {
    expect(readFileSync(SETTINGS_PAGE, "utf8"), "run npm run docs:settings").toBe(settingsPage());
  });

  it("docs/reference/settings.md lists every variable once, with its default (none where it has none)", () => {
    const documented = new Map<string, string>();
    for (const [variable, fallback] of tableRows("docs/reference/settings.md", "Every setting")) {
      const name = /^`([A-Z0-9_]+)`$/.exec(variable ?? "")?.[1];
      if (name === undefined) continue;
      expect(documented.has(name), `${name} listed twice`).toBe(false);
      documented.set(name, fallback ?? "");
    }
    expect(sorted(documented.keys())).toEqual(sorted(rows.map((row) => row.env)));
    for (const row of rows) {
      const cell = documented.get(row.env);
      if (row.default === undefined) expect(cell, row.env).not.toMatch(/^`/);
      else expect(cell, row.env).toBe(`\`${shown(row.default)}\``);
    }
  });

  it(".env.example sets every variable to its default, and leaves those without one commented out", () => {
    const lines = read(".env.example")
      .split("\n")
      .flatMap((line) => {
        const match = /^(# ?)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
        return match
          ? [{ commented: match[1] !== undefined, name: match[2] as string, value: match[3] }]
          : [];
      });
    expect(sorted(lines.map((line) => line.name))).toEqual(sorted(rows.map((row) => row.env)));
    for (const row of rows) {
      const line = lines.find((candidate) => candidate.name === row.env);
      if (row.default === undefined) expect(line?.commented, row.env).toBe(true);
      else expect(line, row.env).toEqual({ commented: false, name: row.env, value: shown(row.default) });
    }
  });

  it("--help shows every flag with its variable, and every other variable, each with its default", () => {
    const lines = usage().split("\n");
    // The options' lines: the usage lines above them name flags of the subcommands too.
    const help = lines.slice(lines.indexOf("Options:"));
    for (const row of rows) {
      const line = row.flag
        ? help.find((candidate) => candidate.includes(`--${row.flag?.name} `))
        : help.find((candidate) => candidate.startsWith(`  ${row.env} `));
      expect(line, row.env).toBeDefined();
      if (row.flag) expect(line).toContain(`[${row.env}]`);
      if (row.default !== undefined) expect(line).toContain(`(${shown(row.default)})`);
    }
  });

  it("docs/reference/cli.md lists exactly the flags, each with its variable", () => {
    const documented = tableRows("docs/reference/cli.md", "Flags").flatMap(([flag, variable]) => {
      const name = /--([a-z-]+)/.exec(flag ?? "")?.[1];
      const env = /^`([A-Z0-9_]+)`$/.exec(variable ?? "")?.[1];
      return name !== undefined && env !== undefined ? [`--${name} ${env}`] : [];
    });
    expect(sorted(documented)).toEqual(
      sorted(rows.flatMap((row) => (row.flag ? [`--${row.flag.name} ${row.env}`] : []))),
    );
  });
});
