import { OPERATION_COUNT } from "../../http/operations/table.js";
import { type Command, HELP, helpOf, parseFlags } from "../flags.js";
import { answerBytesOf, baseUrlProblem, MAX_ANSWER_BYTES_FLAG } from "../untrusted-server.js";
import { UsageError } from "../usage-error.js";
import { KEY_PAIR_IN } from "./config.js";

/** `loyalty-mock verify`: its flags, checked before anything is read or called (a wrong one is exit 2). */
export interface VerifyCommand {
  command: "verify";
  config?: string;
  record?: string;
  replay?: string;
  json?: string;
  mock?: string;
  allowWrites: boolean;
  /** The most bytes one answer may be, as sent and as decoded (8 MiB unless given). */
  maxAnswerBytes?: number;
}

export const VERIFY: Command = {
  name: "verify",
  usage: [
    "verify (--config <file> | --replay <recording>) [--record <file>] [--json <file>] [--mock <url>] [--allow-writes] [--max-answer-bytes <n>]",
  ],
  about:
    `Calls all ${OPERATION_COUNT} operations, a plain call of each and its documented errors, against the target of the\n` +
    "config (your sandbox project) and against loyalty-mock (a fresh one in this process, or --mock <url>), and\n" +
    "compares the answers step by step.",
  flags: [
    { name: "config", value: "<file>", help: "the target (url) and the sandbox objects to use (JSON)" },
    {
      name: "record",
      value: "<file>",
      help: "keep the target's answers, normalized and without credentials, for --replay",
    },
    {
      name: "replay",
      value: "<recording>",
      help: "compare loyalty-mock with a recording: no target, no config",
    },
    { name: "json", value: "<file>", help: "write the report as JSON" },
    {
      name: "mock",
      value: "<url>",
      help: "compare with the loyalty-mock at this URL instead of a fresh one",
    },
    {
      name: "allow-writes",
      help: "run the steps that write to the target (a card, an event, a tier, a delete)",
    },
    MAX_ANSWER_BYTES_FLAG,
    HELP,
  ],
  more: [
    "The key pair comes from LOYALTY_MOCK_VERIFY_APP_ID and LOYALTY_MOCK_VERIFY_APP_TOKEN (or the config's target).",
    "The target is not trusted: no redirect is followed, secrets are masked wherever they appear, files are 0600.",
    "Exit status: 0 every step matched, 1 a step differed, 2 a usage or config error (a path that cannot be",
    "written, a run that compared nothing), 3 the target unusable (no answer, its call budget used up, a redirected",
    "token request, an answer too large or too deep).",
  ],
  examples: [
    "loyalty-mock verify --config verify.json --allow-writes --record verify.recording.json",
    "loyalty-mock verify --replay verify.recording.json --json verify.report.json",
  ],
};

export function parseVerify(args: readonly string[]): VerifyCommand | { command: "help"; text: string } {
  const values = parseFlags(VERIFY, args);
  if (values === "help") return { command: "help", text: helpOf(VERIFY) };
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  const [config, record, replay, json, mock] = ["config", "record", "replay", "json", "mock"].map(text);
  if (config === undefined && replay === undefined)
    throw new UsageError(
      "verify: give --config <file> (the target and its objects), or --replay <recording>",
      VERIFY,
    );
  if (record !== undefined && replay !== undefined)
    throw new UsageError("verify: --record calls the target and --replay does not: give one of them", VERIFY);
  if (mock !== undefined && (!URL.canParse(mock) || !/^https?:$/.test(new URL(mock).protocol)))
    throw new UsageError(
      `verify: invalid value for --mock: ${JSON.stringify(mock)}; expected an http:// URL, as in --mock http://127.0.0.1:3000`,
      VERIFY,
    );
  const mockProblem = mock === undefined ? undefined : baseUrlProblem(mock, KEY_PAIR_IN);
  // The address is not repeated: it may hold a password.
  if (mockProblem !== undefined)
    throw new UsageError(`verify: invalid value for --mock: ${mockProblem}`, VERIFY);
  const maxAnswerBytes = answerBytesOf(text(MAX_ANSWER_BYTES_FLAG.name), VERIFY);
  return {
    command: "verify",
    ...(config !== undefined && { config }),
    ...(record !== undefined && { record }),
    ...(replay !== undefined && { replay }),
    ...(json !== undefined && { json }),
    ...(mock !== undefined && { mock: mock.replace(/\/+$/, "") }),
    allowWrites: values["allow-writes"] === true,
    ...(maxAnswerBytes !== undefined && { maxAnswerBytes }),
  };
}
