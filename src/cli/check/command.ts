import { existsSync } from "node:fs";
import { type Command, HELP, helpOf, parseCommand } from "../flags.js";
import { UsageError } from "../usage-error.js";
import {
  checkFixtures,
  checkScenario,
  checkSettings,
  defaultWorld,
  kindOf,
  type PathReport,
  type Problem,
  type ScenarioWorld,
} from "./checks.js";

/** `loyalty-mock check <path>...`: fixtures folders, scenarios and settings files checked offline. */
export interface CheckCommand {
  command: "check";
  paths: string[];
  json: boolean;
  /** The fixtures whose project a scenario's ids are looked up in (the embedded ones unless given). */
  fixtures?: string;
  project: string;
}

export const CHECK: Command = {
  name: "check",
  usage: ["check <path>... [--fixtures <dir>] [--project <id>] [--json]"],
  about:
    "Checks fixtures folders, scenarios and settings files offline, with no server, by the code a start and a\n" +
    "play run: a folder is fixtures (every project, as a start loads it, named by file and JSON path); a .json\n" +
    "file is a scenario (every step, and each campaign, event, tier structure and incentive it names, looked up\n" +
    "in the project of the fixtures); any other file is a settings file (every line, against the settings table).",
  flags: [
    {
      name: "fixtures",
      value: "<dir>",
      help: "the fixtures whose project scenarios name ids of (the embedded dataset unless given)",
    },
    { name: "project", value: "<id>", help: "that project (demo)" },
    { name: "json", help: "print the report as JSON, for machines" },
    HELP,
  ],
  more: [
    "Exit status: 0 every path passed, 1 a problem (one line each: file, where, what), 2 a usage error.",
  ],
  examples: [
    "loyalty-mock check ./fixtures ./scenarios/first-month.json ci.env",
    "loyalty-mock check my-story.json --fixtures ./my-fixtures --project shop --json",
  ],
};

export function parseCheck(args: readonly string[]): CheckCommand | { command: "help"; text: string } {
  const parsed = parseCommand(CHECK, args);
  if (parsed === "help") return { command: "help", text: helpOf(CHECK) };
  const { values, positionals } = parsed;
  if (positionals.length === 0)
    throw new UsageError("check: give one or more paths, as in loyalty-mock check ./fixtures", CHECK);
  const fixtures = typeof values.fixtures === "string" ? values.fixtures : undefined;
  return {
    command: "check",
    paths: positionals,
    json: values.json === true,
    ...(fixtures !== undefined && { fixtures }),
    project: typeof values.project === "string" ? values.project : "demo",
  };
}

/** Every path's report, in the order given; the world scenarios are checked in is built once, when needed. */
export function checkPaths(command: Omit<CheckCommand, "command" | "json">): PathReport[] {
  let world: ScenarioWorld | undefined;
  const worldOf = () => {
    world ??= defaultWorld(command.fixtures, command.project);
    return world;
  };
  return command.paths.map((path): PathReport => {
    if (!existsSync(path))
      return {
        path,
        kind: "settings",
        checked: "nothing",
        problems: [{ file: path, problem: "no such file or folder" }],
      };
    const kind = kindOf(path);
    if (kind === "fixtures") {
      const { registry: _registry, ...report } = checkFixtures(path);
      return report;
    }
    return kind === "scenario" ? checkScenario(path, worldOf()) : checkSettings(path);
  });
}

/** A problem in a line: `file: where: what`. */
export function problemLine(problem: Problem): string {
  return [problem.file, problem.where, problem.problem].filter((part) => part !== undefined).join(": ");
}

interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Resolves to the exit status: 0 all passed, 1 a problem. */
export function runCheck(command: CheckCommand, io: Io): number {
  if (command.fixtures !== undefined && !existsSync(command.fixtures)) {
    io.stderr(`loyalty-mock check: --fixtures ${command.fixtures}: no such folder\n`);
    return 2;
  }
  const reports = checkPaths(command);
  const failed = reports.some((report) => report.problems.length > 0);
  if (command.json) io.stdout(`${JSON.stringify({ ok: !failed, paths: reports }, null, 2)}\n`);
  else if (!failed)
    for (const report of reports) io.stdout(`ok ${report.path} (${report.kind}, ${report.checked})\n`);
  else {
    // Only the problems on stdout, one a line, for a script to read; the count on stderr.
    for (const report of reports)
      for (const problem of report.problems) io.stdout(`${problemLine(problem)}\n`);
    const count = reports.reduce((sum, report) => sum + report.problems.length, 0);
    const paths = reports.filter((report) => report.problems.length > 0).length;
    io.stderr(
      `loyalty-mock check: ${count} problem${count === 1 ? "" : "s"} in ${paths} of ${reports.length} paths\n`,
    );
  }
  return failed ? 1 : 0;
}
