import type { ServerAnswer, ServerCall, ServerTarget } from "../server-client.js";
import type { JsonSchema } from "./json-schema.js";

/** What a tool's call gives back, as MCP's `tools/call` result has it. */
export interface ToolResult {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** What a tool is given besides its arguments: the server it drives. */
export interface ToolContext {
  target: ServerTarget;
  /** One bounded call to that server (server-client.ts). */
  send(call: ServerCall): Promise<ServerAnswer>;
}

/** One tool of the MCP server: how it is listed, and what a call does. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  annotations?: { readOnlyHint?: boolean };
  call(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
}

/** A JSON value as the text an agent reads. */
export const jsonText = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * A server's answer as a tool's result: its status, request id and body, as text and as structured content. A
 * refusal (4xx, 5xx) is a result marked as an error, carrying the service's error object: the agent reads what
 * the stand-in said, as its own code would.
 */
export function answerResult(answer: ServerAnswer): ToolResult {
  const structured = {
    status: answer.status,
    request_id: answer.requestId ?? null,
    body: answer.body ?? null,
  };
  return {
    content: [
      {
        type: "text",
        text: `${answer.what} answered ${answer.status}${answer.requestId ? ` (request ${answer.requestId})` : ""}\n${jsonText(answer.body ?? null)}`,
      },
    ],
    structuredContent: structured,
    ...(answer.status >= 400 && { isError: true }),
  };
}

/** A tool that could not do its work: said in words, marked as an error. */
export function failedResult(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}
