import { type Command, HELP, helpOf, parseFlags } from "../flags.js";
import { UsageError } from "../usage-error.js";

/** `loyalty-mock verify`: its flags, checked before anything is read or called (a wrong one is exit 2). */
export interface VerifyCommand {
  command: "verify";
  config?: string;
  record?: string;
  replay?: string;
  json?: string;
  mock?: string;
  allowWrites: boolean;
}

export const VERIFY: Command = {
  name: "verify",
  usage: [
    "verify (--config <file> | --replay <recording>) [--record <file>] [--json <file>] [--mock <url>] [--allow-writes]",
  ],
  about:
    "Runs one scripted scenario of all six operations against the target of the config (your sandbox project)\n" +
    "and against loyalty-mock (a fresh one in this process, or --mock <url>), and compares the answers step by step.",
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
    HELP,
  ],
  more: [
    "The key pair comes from LOYALTY_MOCK_VERIFY_APP_ID and LOYALTY_MOCK_VERIFY_APP_TOKEN (or the config's target).",
    "Exit status: 0 every step matched, 1 a step differed, 2 a usage or config error, 3 the target did not answer",
    "or its call budget ran out.",
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
  return {
    command: "verify",
    ...(config !== undefined && { config }),
    ...(record !== undefined && { record }),
    ...(replay !== undefined && { replay }),
    ...(json !== undefined && { json }),
    ...(mock !== undefined && { mock: mock.replace(/\/+$/, "") }),
    allowWrites: values["allow-writes"] === true,
  };
}
