import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { DEFAULT_MAX_ANSWER_BYTES } from "../../clients/read-answer.js";
import { SETTINGS } from "../../config/settings.js";
import { variableOf } from "../../config/settings-table.js";
import { type RunningServer, startServer } from "../../server.js";
import type { McpCommand } from "./command.js";
import { mcpServer } from "./server.js";

interface Io {
  env: NodeJS.ProcessEnv;
  stderr(text: string): void;
  /** loyalty-mock's version, the MCP server's. */
  version: string;
}

/**
 * `loyalty-mock mcp`: the tools' server on stdin and stdout, driving the stand-in at --url or, with --in-process,
 * one it starts on a free loopback port with the embedded fixtures (stopped with it). It runs until the client
 * closes stdin.
 */
export async function runMcp(command: McpCommand, io: Io): Promise<void> {
  const given = io.env[variableOf(SETTINGS.adminToken)];
  const adminToken = given === undefined || given === "" ? undefined : given;
  let running: RunningServer | undefined;
  if (command.inProcess)
    running = await startServer({
      host: "127.0.0.1",
      port: 0,
      ...(adminToken !== undefined && { adminToken }),
    });
  const url = running?.url ?? command.url ?? "http://127.0.0.1:3000";
  const server = mcpServer(
    { url, adminToken, maxAnswerBytes: command.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES, reader: "mcp" },
    io.version,
  );
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  io.stderr(
    `loyalty-mock mcp: serving tools on stdio for ${running ? `a server of its own at ${url}` : url}\n`,
  );
  await closed;
  await server.close();
  await running?.close();
  process.exit(0);
}
