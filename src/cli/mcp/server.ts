import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { callServer, type ServerTarget } from "../server-client.js";
import { controlTools } from "./control-tools.js";
import { operationTools } from "./operation-tools.js";
import { isCallFailure, taskTools } from "./task-tools.js";
import { failedResult, type Tool, type ToolContext } from "./tool.js";

/** Every tool: one per control route, one per operation, then the journal told, play, trigger and verify --replay. */
export function allTools(version: string): Tool[] {
  const control = controlTools();
  return [...control, ...operationTools(), ...taskTools(control, version)];
}

/**
 * The MCP server: the SDK's low-level Server, whose tools are listed with the JSON Schema they are derived with
 * (the control API's own document and the operation table), not declared again in zod. Arguments go to the
 * stand-in as given, and it validates them as it validates any client's, answering its own error object: one
 * validator, so the tools can accept nothing the API refuses, nor refuse what it accepts.
 */
export function mcpServer(
  target: ServerTarget,
  version: string,
  tools: readonly Tool[] = allTools(version),
): Server {
  // The low-level Server is the SDK's way to list tools from JSON Schema (McpServer takes zod schemas).
  const server = new Server(
    { name: "loyalty-mock", title: "loyalty-mock", version },
    {
      capabilities: { tools: {} },
      instructions:
        "Drives a loyalty-mock server, a stand-in for a loyalty and promotions service (Voucherify): control " +
        "tools (projects, clock, keys, journal, faults, webhooks, snapshots, views), the public operations with a " +
        "project's keys, the journal as sentences, and play, trigger and verify_replay. The demo project is `demo`.",
    },
  );
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const context: ToolContext = { target, send: (call) => callServer(target, call) };
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema: inputSchema as { type: "object"; [key: string]: unknown },
      ...(annotations && { annotations }),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) return failedResult(`No tool ${request.params.name}`);
    try {
      return await tool.call(request.params.arguments ?? {}, context);
    } catch (error) {
      // The server unreachable, a redirect, an answer past the cap: said as the tool's answer, never a crash.
      if (isCallFailure(error)) return failedResult(error.message);
      throw error;
    }
  });
  return server;
}
