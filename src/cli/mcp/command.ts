import { SETTINGS } from "../../config/settings.js";
import { variableOf } from "../../config/settings-table.js";
import { type Command, HELP, helpOf, parseCommand } from "../flags.js";
import { answerBytesOf, baseUrlProblem, MAX_ANSWER_BYTES_FLAG } from "../untrusted-server.js";
import { UsageError } from "../usage-error.js";

/** `loyalty-mock mcp`: a Model Context Protocol server on stdio, driving a stand-in at --url or its own. */
export interface McpCommand {
  command: "mcp";
  /** The server the tools drive; undefined with --in-process. */
  url?: string;
  inProcess: boolean;
  maxAnswerBytes?: number;
}

export const MCP: Command = {
  name: "mcp",
  usage: ["mcp [--url <url> | --in-process] [--max-answer-bytes <n>]"],
  about:
    "A Model Context Protocol server on stdio, for coding agents: a tool for each control API route (projects,\n" +
    "clock, keys, journal, faults, webhooks, snapshots, views), one for each operation through the public API with\n" +
    "a project's keys, the journal as sentences and JSON, and play, trigger and verify_replay.",
  flags: [
    { name: "url", value: "<url>", help: "the running server the tools drive (http://127.0.0.1:3000)" },
    {
      name: "in-process",
      help: "start a server of its own, on a free loopback port, with the embedded fixtures",
    },
    MAX_ANSWER_BYTES_FLAG,
    HELP,
  ],
  more: [
    `The admin token is read from ${variableOf(SETTINGS.adminToken)} (never a flag, never echoed): sent to --url`,
    "only, or given to the server --in-process starts. Stdout carries the protocol; anything else goes to stderr.",
    "docs/guide/agents.md shows the configuration for Claude Code, Claude Desktop, VS Code and Cursor.",
  ],
  examples: ["loyalty-mock mcp --in-process", "loyalty-mock mcp --url http://127.0.0.1:3000"],
};

const fail = (message: string) => new UsageError(`mcp: ${message}`, MCP);

export function parseMcp(args: readonly string[]): McpCommand | { command: "help"; text: string } {
  const parsed = parseCommand(MCP, args, false);
  if (parsed === "help") return { command: "help", text: helpOf(MCP) };
  const { values } = parsed;
  const inProcess = values["in-process"] === true;
  const given = typeof values.url === "string" ? values.url : undefined;
  if (inProcess && given !== undefined) throw fail("give --url or --in-process, not both");
  const url = given ?? "http://127.0.0.1:3000";
  const urlProblem = baseUrlProblem(url, "the project's keys (read from the control API)");
  if (urlProblem !== undefined) throw fail(`invalid value for --url: ${urlProblem}`);
  const maxAnswerBytes = answerBytesOf(
    typeof values[MAX_ANSWER_BYTES_FLAG.name] === "string"
      ? (values[MAX_ANSWER_BYTES_FLAG.name] as string)
      : undefined,
    MCP,
  );
  return {
    command: "mcp",
    ...(!inProcess && { url: url.replace(/\/+$/, "") }),
    inProcess,
    ...(maxAnswerBytes !== undefined && { maxAnswerBytes }),
  };
}
