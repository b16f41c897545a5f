import { existsSync, readFileSync } from "node:fs";
import { ANSWER_TIMEOUT_MS } from "../clients/bounded-request.js";
import { CallFailed, type CallTarget } from "../clients/play/calls.js";
import { playScenario } from "../clients/play/player.js";
import { type KeyPair, projectKeyOf } from "../clients/play/project-key.js";
import { parseScenario, type Scenario, shippedScenarios } from "../clients/play/scenario.js";
import { DEFAULT_MAX_ANSWER_BYTES } from "../clients/read-answer.js";
import { PLAY_VARIABLES } from "../config/other-variables.js";
import { SETTINGS } from "../config/settings.js";
import { variableOf } from "../config/settings-table.js";
import { type Command, HELP, helpOf, parseCommand } from "./flags.js";
import { answerBytesOf, baseUrlProblem, MAX_ANSWER_BYTES_FLAG } from "./untrusted-server.js";
import { UsageError } from "./usage-error.js";

/**
 * `loyalty-mock play <scenario>`: a customer's story played through the public operations of a running server,
 * each step printed as it happens. The key pair is the project's, as an application has it: from the flags, the
 * variables of config/other-variables.ts, or else the project's first active key, read from the control API.
 */
export interface PlayCommand {
  command: "play";
  /** A scenario file, or the name of one shipped in the package (`first-month`). */
  scenario: string;
  url: string;
  project: string;
  speed: number;
  appId?: string;
  appToken?: string;
  adminToken?: string;
  /** The most bytes one answer may be, as sent and as decoded (8 MiB unless given). */
  maxAnswerBytes?: number;
}

const PLAY_ENV = PLAY_VARIABLES;

export const PLAY: Command = {
  name: "play",
  usage: [
    "play <scenario.json | name> [--url <url>] [--project <id>] [--speed <n>] [--app-id <id> --app-token <token>] [--admin-token <token>] [--max-answer-bytes <n>]",
  ],
  about:
    "Plays a scenario (JSON with a steps array: join, event, clock, tier, delete_incentive, pause) through the\n" +
    "public operations of a running server, printing each step as it happens (after a join or an event, the card's\n" +
    "points and any tier it moved into, from the control API). A name instead of a file plays one\n" +
    `of the scenarios shipped in the package: ${shippedScenarios()
      .map(({ name }) => name)
      .join(", ")}.`,
  flags: [
    { name: "url", value: "<url>", help: "the server's base URL (http://127.0.0.1:3000)" },
    { name: "project", value: "<id>", help: "the project to play in (demo)" },
    { name: "speed", value: "<n>", help: "pauses last their seconds divided by this, from 0.01 to 1000 (1)" },
    { name: "app-id", value: "<id>", help: `the project's key pair: its app id [${PLAY_ENV.appId}]` },
    { name: "app-token", value: "<token>", help: `and its app token [${PLAY_ENV.appToken}]` },
    {
      name: "admin-token",
      value: "<token>",
      help: `the server's admin token, for the clock and the key look-up [${variableOf(SETTINGS.adminToken)}]`,
    },
    MAX_ANSWER_BYTES_FLAG,
    HELP,
  ],
  more: [
    "Without a key pair, the project's first active key is read from the control API (GET /__mock/projects/<id>/keys).",
    "The server is not trusted: no redirect is followed (the key pair and the admin token go to --url only), and a",
    `step fails on a redirect, an answer that is not JSON, past --max-answer-bytes or not whole within ${ANSWER_TIMEOUT_MS / 1000} s.`,
    "Exit status: 0 every step played, 1 a step failed (named on the last line), 2 a usage or scenario error.",
  ],
  examples: [
    "loyalty-mock play first-month --speed 10",
    "loyalty-mock play ./my-story.json --url http://127.0.0.1:3000 --project demo",
  ],
};

const fail = (message: string) => new UsageError(`play: ${message}`, PLAY);

export function parsePlay(args: readonly string[]): PlayCommand | { command: "help"; text: string } {
  const parsed = parseCommand(PLAY, args);
  if (parsed === "help") return { command: "help", text: helpOf(PLAY) };
  const { values, positionals } = parsed;
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  const [scenario, ...extra] = positionals;
  if (scenario === undefined) throw fail("give a scenario file or name, as in loyalty-mock play first-month");
  if (extra.length > 0) throw fail(`one scenario at a time; ${JSON.stringify(extra[0])} is one too many`);
  const url = text("url") ?? "http://127.0.0.1:3000";
  // The address is not repeated: it may hold a password.
  const urlProblem = baseUrlProblem(url, "--app-id and --app-token");
  if (urlProblem !== undefined) throw fail(`invalid value for --url: ${urlProblem}`);
  const speedText = text("speed") ?? "1";
  const speed = /^\d+(\.\d+)?$/.test(speedText) ? Number(speedText) : Number.NaN;
  if (!(speed >= 0.01 && speed <= 1000))
    throw fail(
      `invalid value for --speed: ${JSON.stringify(speedText)}; expected a number from 0.01 to 1000, as in --speed 10`,
    );
  const [appId, appToken, adminToken, project = "demo"] = [
    "app-id",
    "app-token",
    "admin-token",
    "project",
  ].map(text);
  if ((appId === undefined) !== (appToken === undefined))
    throw fail("give --app-id and --app-token together");
  const maxAnswerBytes = answerBytesOf(text(MAX_ANSWER_BYTES_FLAG.name), PLAY);
  return {
    command: "play",
    scenario,
    url: url.replace(/\/+$/, ""),
    project,
    speed,
    ...(appId !== undefined && { appId }),
    ...(appToken !== undefined && { appToken }),
    ...(adminToken !== undefined && { adminToken }),
    ...(maxAnswerBytes !== undefined && { maxAnswerBytes }),
  };
}

/** The scenario a file holds, or the shipped one of that name. */
function scenarioOf(given: string): Scenario {
  if (existsSync(given)) {
    try {
      return parseScenario(readFileSync(given, "utf8"));
    } catch (error) {
      throw fail(`${given}: ${(error as Error).message}`);
    }
  }
  const shipped = shippedScenarios();
  const found = shipped.find(({ name }) => name === given);
  if (!found)
    throw fail(
      `no file ${given}, and no scenario of that name (the package has ${shipped.map((s) => s.name).join(", ")})`,
    );
  return found.scenario;
}

interface Io {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Resolves to the exit status. */
export async function runPlay(command: PlayCommand, io: Io): Promise<number> {
  let scenario: Scenario;
  try {
    scenario = scenarioOf(command.scenario);
  } catch (error) {
    io.stderr(`loyalty-mock: ${(error as Error).message}\n`);
    return 2;
  }
  const adminToken = command.adminToken ?? io.env[variableOf(SETTINGS.adminToken)];
  const appId = command.appId ?? io.env[PLAY_ENV.appId];
  const appToken = command.appToken ?? io.env[PLAY_ENV.appToken];
  const target: CallTarget = {
    url: command.url,
    maxAnswerBytes: command.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
  };
  let keys: KeyPair;
  try {
    keys = appId && appToken ? { appId, appToken } : await projectKeyOf(target, command.project, adminToken);
  } catch (error) {
    if (!(error instanceof CallFailed)) throw error;
    io.stderr(`loyalty-mock play: the project's key pair: ${error.message}\n`);
    return 1;
  }
  io.stdout(
    `Playing "${scenario.title}" (${scenario.steps.length} steps) in project ${command.project} on ${command.url}\n`,
  );
  const result = await playScenario(scenario, {
    url: command.url,
    projectId: command.project,
    keys,
    adminToken,
    speed: command.speed,
    maxAnswerBytes: target.maxAnswerBytes,
    print: (line) => io.stdout(`${line}\n`),
  });
  if (result.ok) {
    io.stdout(`Done: ${result.steps} steps played.\n`);
    return 0;
  }
  io.stderr(`loyalty-mock play: ${result.message}\n`);
  return 1;
}
