import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { childEnv, ROOT } from "./process.js";

/**
 * The GitHub Action of action.yml run as a runner runs it (issue 48): each input as INPUT_<NAME> (upper case,
 * spaces as underscores, hyphens kept), the defaults of those not given included, as the runner passes every
 * declared input; the four files the runner names (GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STATE, GITHUB_STEP_SUMMARY),
 * RUNNER_TEMP and GITHUB_WORKSPACE; and for the post step, what main saved as STATE_<name>.
 */

interface ActionYaml {
  inputs: Record<string, { default?: string; description: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string; post: string; "post-if"?: string };
}

export const ACTION = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as ActionYaml;

/** Entries of a runner file: `name=value` lines and `name<<DELIMITER` blocks, the later of one name winning. */
export function readEnvFile(file: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const lines = readFileSync(file, "utf8").split("\n");
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] as string;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2] as string, at + 1);
      if (end === -1) throw new Error(`${file}: ${heredoc[1]} has no closing ${heredoc[2]}`);
      entries[heredoc[1] as string] = lines.slice(at + 1, end).join("\n");
      at = end;
    } else if (line.includes("="))
      entries[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
  }
  return entries;
}

/** One job's runner: its files in `dir`, its workspace, and main and post of the action at `actionPath`. */
export class Runner {
  readonly workspace: string;
  readonly files: { output: string; env: string; state: string; summary: string; temp: string };

  constructor(
    readonly dir: string,
    readonly actionPath = ROOT,
  ) {
    this.workspace = join(dir, "workspace");
    this.files = {
      output: join(dir, "output"),
      env: join(dir, "env"),
      state: join(dir, "state"),
      summary: join(dir, "summary.md"),
      temp: join(dir, "temp"),
    };
    mkdirSync(this.workspace, { recursive: true });
    mkdirSync(this.files.temp, { recursive: true });
    for (const file of [this.files.output, this.files.env, this.files.state, this.files.summary])
      writeFileSync(file, "");
  }

  /** The step's environment: the runner's files, every input, and `extra` (the job's own variables). */
  environment(
    given: Record<string, string>,
    extra: Record<string, string | undefined> = {},
  ): NodeJS.ProcessEnv {
    const unknown = Object.keys(given).filter((name) => !(name in ACTION.inputs));
    if (unknown.length > 0) throw new Error(`action.yml has no input ${unknown.join(", ")}`);
    const inputs = Object.fromEntries(
      Object.entries(ACTION.inputs).map(([name, { default: value }]) => [
        `INPUT_${name.replace(/ /g, "_").toUpperCase()}`,
        given[name] ?? value ?? "",
      ]),
    );
    return childEnv({
      ...extra,
      ...inputs,
      GITHUB_OUTPUT: this.files.output,
      GITHUB_ENV: this.files.env,
      GITHUB_STATE: this.files.state,
      GITHUB_STEP_SUMMARY: this.files.summary,
      GITHUB_WORKSPACE: this.workspace,
      RUNNER_TEMP: this.files.temp,
      GITHUB_ACTIONS: "true",
    });
  }

  /** runs.main, as `node <file>` in the workspace; its exit status and what it wrote to the log. */
  main(given: Record<string, string>, extra: Record<string, string | undefined> = {}, timeout = 300_000) {
    return this.#step(ACTION.runs.main, this.environment(given, extra), timeout);
  }

  /** runs.post, with what main saved in GITHUB_STATE as STATE_<name>. */
  post(given: Record<string, string> = {}, extra: Record<string, string | undefined> = {}) {
    const saved = Object.fromEntries(
      Object.entries(readEnvFile(this.files.state)).map(([name, value]) => [`STATE_${name}`, value]),
    );
    return this.#step(ACTION.runs.post, { ...this.environment(given, extra), ...saved }, 120_000);
  }

  #step(script: string, env: NodeJS.ProcessEnv, timeout: number) {
    const run = spawnSync(process.execPath, [join(this.actionPath, script)], {
      cwd: this.workspace,
      env,
      encoding: "utf8",
      timeout,
    });
    return { status: run.status, log: `${run.stdout}${run.stderr}` };
  }

  /** What the step wrote for later steps and the job's page. */
  outputs = () => readEnvFile(this.files.output);
  exported = () => readEnvFile(this.files.env);
  summary = () => readFileSync(this.files.summary, "utf8");

  /** Empties the files a new job would start without (a second job on the same workspace). */
  newJob(): void {
    for (const file of [this.files.output, this.files.env, this.files.state, this.files.summary])
      writeFileSync(file, "");
  }
}
