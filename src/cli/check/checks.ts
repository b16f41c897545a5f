import { readFileSync, statSync } from "node:fs";
import { parseScenario, type Scenario } from "../../clients/play/scenario.js";
import { OTHER_VARIABLES } from "../../config/other-variables.js";
import { completeDefaults } from "../../config/project-defaults.js";
import { ConfigError, readConfig, SETTINGS } from "../../config/settings.js";
import { readSettingsText } from "../../config/settings-file.js";
import { rowsOf, variableOf } from "../../config/settings-table.js";
import { ApiError } from "../../domain/errors.js";
import { metadataProblem } from "../../domain/events/metadata-check.js";
import { checkProjectDocuments } from "../../domain/projects/load.js";
import type { Project } from "../../domain/projects/project.js";
import { ProjectRegistry } from "../../domain/projects/registry.js";
import { systemClock } from "../../platform/clock.js";
import { DEFAULT_FIXTURES_DIR } from "../../platform/fixtures.js";

/**
 * What `loyalty-mock check` finds in each path, offline: the same code a start and a play run, so that check and
 * they can never disagree. A fixtures folder is loaded by the start's loader and its projects installed as a start
 * installs them; a scenario is parsed by play's parser and its steps' references looked up in a project built from
 * fixtures the same way; a settings file is read by --settings-file's reader and every value checked by the
 * settings table, as a start checks them.
 */
export type PathKind = "fixtures" | "scenario" | "settings";

export interface Problem {
  /** The file or folder, as given or as the loader names it. */
  file: string;
  /** Where in it: a JSON path (`$.steps[2].campaign`), a line (`line 3`), or undefined for the whole. */
  where?: string;
  problem: string;
}

export interface PathReport {
  path: string;
  kind: PathKind;
  /** What was checked, in words (`2 projects`, `12 steps`, `4 settings`). */
  checked: string;
  problems: Problem[];
}

/** A folder is fixtures, a `.json` file a scenario, anything else a settings file. */
export function kindOf(path: string): PathKind {
  if (statSync(path).isDirectory()) return "fixtures";
  return path.endsWith(".json") ? "scenario" : "settings";
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** Fixtures, loaded and installed as a start does; the registry with every project that passed, for scenarios. */
export function checkFixtures(dir: string): PathReport & { registry: ProjectRegistry } {
  const problems: Problem[] = [];
  let documents: ReturnType<typeof checkProjectDocuments>["documents"] = [];
  try {
    const loaded = checkProjectDocuments(dir);
    documents = loaded.documents;
    for (const error of loaded.problems)
      problems.push({
        file: error.file,
        where: error.jsonPath,
        problem: error.message.slice(error.file.length + error.jsonPath.length + 4),
      });
  } catch (error) {
    problems.push({ file: dir, problem: (error as Error).message.replace(`${dir}: $: `, "") });
  }
  const registry = new ProjectRegistry({ clock: systemClock, defaults: completeDefaults() });
  for (const document of documents)
    try {
      registry.add(document);
    } catch (error) {
      const message = error instanceof ApiError ? (error.details ?? error.message) : (error as Error).message;
      problems.push({ file: dir, problem: `project ${document.project.id}: ${message}` });
    }
  return { path: dir, kind: "fixtures", checked: plural(documents.length, "project"), problems, registry };
}

/** Where the scenario's references are looked up: a project of fixtures (the embedded ones unless named). */
export interface ScenarioWorld {
  fixtures: string;
  projectId: string;
  registry: ProjectRegistry;
}

export function defaultWorld(fixtures = DEFAULT_FIXTURES_DIR, projectId = "demo"): ScenarioWorld {
  return { fixtures, projectId, registry: checkFixtures(fixtures).registry };
}

/** A scenario: its steps as play parses them, then each reference against the project, as the operations check it. */
export function checkScenario(file: string, world: ScenarioWorld): PathReport {
  const report = (checked: string, problems: Problem[]): PathReport => ({
    path: file,
    kind: "scenario",
    checked,
    problems,
  });
  let scenario: Scenario;
  try {
    scenario = parseScenario(readFileSync(file, "utf8"));
  } catch (error) {
    const message = (error as Error).message;
    const at = /^(\$\S*|line \d+ column \d+): (.*)$/s.exec(message);
    return report("0 steps", [
      { file, ...(at ? { where: at[1], problem: at[2] as string } : { problem: message }) },
    ]);
  }
  const project = world.registry.list().find((one) => one.id === world.projectId);
  if (project === undefined)
    return report(plural(scenario.steps.length, "step"), [
      {
        file,
        problem: `no project ${world.projectId} in the fixtures ${world.fixtures}, whose ids the steps name`,
      },
    ]);
  const problems = stepProblems(scenario, project, world).map(({ where, problem }) => ({
    file,
    where,
    problem,
  }));
  return report(plural(scenario.steps.length, "step"), problems);
}

/** Each step's reference that the project lacks, or that its operation would refuse whatever the order. */
function stepProblems(scenario: Scenario, project: Project, world: ScenarioWorld) {
  const problems: { where: string; problem: string }[] = [];
  const within = `project ${world.projectId} of ${world.fixtures}`;
  const deleted = new Set<string>();
  for (const [index, step] of scenario.steps.entries()) {
    const at = (field: string) => `$.steps[${index}].${field}`;
    const say = (field: string, problem: string) => problems.push({ where: at(field), problem });
    if (step.type === "join") {
      const campaign = project.campaigns.find(step.campaign) ?? project.campaigns.findByName(step.campaign);
      if (campaign === undefined) say("campaign", `no campaign ${step.campaign} in ${within}`);
      else if (campaign.campaign_type !== "LOYALTY_PROGRAM")
        say("campaign", `${step.campaign} is a ${campaign.campaign_type}, not a loyalty program`);
    } else if (step.type === "event") {
      const schema = project.eventSchemas.findByName(step.event);
      if (schema === undefined) say("event", `no event schema ${step.event} in ${within}`);
      else {
        const problem = metadataProblem(schema, step.metadata ?? {});
        if (problem) say("metadata", `${step.event}: ${problem}`);
      }
    } else if (step.type === "tier") {
      if (project.tierStructures.find(step.structure) === undefined)
        say("structure", `no tier structure ${step.structure} in ${within}`);
      if (step.max_points < step.min_points) say("max_points", "should be min_points or more");
    } else if (step.type === "delete_incentive") {
      const incentive = project.incentives.find(step.incentive);
      if (incentive === undefined || incentive.status === "DELETED")
        say("incentive", `no incentive ${step.incentive} to delete in ${within}`);
      else if (deleted.has(step.incentive))
        say("incentive", `${step.incentive} is deleted by an earlier step`);
      deleted.add(step.incentive);
    }
  }
  return problems;
}

/** A settings file: every line as --settings-file reads it, every value as the start checks it. */
export function checkSettings(file: string): PathReport {
  const problems: Problem[] = [];
  const read = readSettingsText(readFileSync(file, "utf8"));
  for (const { line, problem } of read.problems)
    problems.push({ file, where: `line ${line}`, problem: problem.replace(/^line \d+ /, "") });
  const known = new Set([...rowsOf(SETTINGS).map(([, row]) => variableOf(row)), ...OTHER_VARIABLES]);
  for (const [name, line] of Object.entries(read.lines))
    if (!name.startsWith("LOYALTY_MOCK_"))
      problems.push({
        file,
        where: `line ${line}`,
        problem: `${name} is not a setting; a start reads LOYALTY_MOCK_ names only${known.has(`LOYALTY_MOCK_${name}`) ? ` (did you mean LOYALTY_MOCK_${name}?)` : ""}`,
      });
  const labels = Object.fromEntries(
    Object.entries(read.lines).map(([name, line]) => [name, `${name} (line ${line})`]),
  );
  try {
    readConfig(
      read.values,
      {},
      (warning) =>
        problems.push({ file, problem: `${warning.replace(/; ignored$/, "")}; a start ignores it` }),
      labels,
    );
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) problems.push({ file, problem });
  }
  const count = Object.keys(read.values).length + read.problems.length;
  return { path: file, kind: "settings", checked: plural(count, "line"), problems };
}
