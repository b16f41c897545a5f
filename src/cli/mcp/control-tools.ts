import { openApiOf } from "../../http/control/openapi.js";
import type { ControlRoute } from "../../http/control/route-table.js";
import { CONTROL_ROUTES } from "../../http/control/table.js";
import type { HttpMethod } from "../../http/route.js";
import { type JsonSchema, standAlone } from "./json-schema.js";
import { answerResult, type Tool } from "./tool.js";

interface OpenApiParameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

interface OpenApiOperation {
  summary: string;
  description?: string;
  parameters: OpenApiParameter[];
  requestBody?: { content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

/**
 * A tool's name from its route: the method and the path's words, the project's id left out (every tool under
 * `/projects/{projectId}` takes it) and a trailing parameter read as `_item`: `POST /projects/{projectId}/clock` is
 * `post_project_clock`, `GET /projects/{projectId}/faults/{faultId}` is `get_project_faults_item`.
 */
export function toolNameOf(method: string, path: string): string {
  const words = path
    .replace(/^\/projects\/\{projectId\}/, "/project")
    .split("/")
    .filter((segment) => segment !== "")
    .flatMap((segment, index, all) =>
      segment.startsWith("{") ? (index === all.length - 1 ? ["item"] : []) : [segment],
    );
  return [method.toLowerCase(), ...words].join("_").replace(/[^A-Za-z0-9_]+/g, "_");
}

const fill = (path: string, args: Record<string, unknown>) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(args[name] ?? "")));

/**
 * One tool per route of the control table, made from the control API's own OpenAPI document (http/control/openapi.ts), which
 * is generated from the same table: its path and query parameters at the top level of the tool's arguments, its
 * body under `body`, each with the schema and description the document gives. A new route is a new tool. A
 * route that answers a live stream of server-sent events (the feed) cannot be one call's answer, and has none.
 */
export function controlTools(routes: readonly ControlRoute[] = CONTROL_ROUTES): Tool[] {
  const document = openApiOf(routes) as {
    paths: Record<string, Record<string, OpenApiOperation>>;
    components: { schemas: Record<string, unknown> };
  };
  const tools: Tool[] = [];
  for (const [fullPath, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods)) {
      const streams = Object.values(operation.responses).some(
        (response) => response.content?.["text/event-stream"] !== undefined,
      );
      if (!streams)
        tools.push(
          toolOf(method.toUpperCase() as HttpMethod, fullPath, operation, document.components.schemas),
        );
    }
  const names = new Set<string>();
  for (const { name } of tools) {
    if (names.has(name)) throw new Error(`two control routes make the tool ${name}`);
    names.add(name);
  }
  return tools;
}

function toolOf(
  method: HttpMethod,
  fullPath: string,
  operation: OpenApiOperation,
  components: Record<string, unknown>,
): Tool {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const queryNames: string[] = [];
  for (const parameter of operation.parameters) {
    properties[parameter.name] = {
      ...parameter.schema,
      ...(parameter.description !== undefined && { description: parameter.description }),
    };
    if (parameter.required) required.push(parameter.name);
    if (parameter.in === "query") queryNames.push(parameter.name);
  }
  const body = operation.requestBody?.content["application/json"].schema;
  if (body !== undefined) {
    properties.body = body;
    required.push("body");
  }
  const path = fullPath.replace(/^\/__mock/, "");
  return {
    name: toolNameOf(method, path),
    title: operation.summary,
    description: `${operation.summary} (control API: ${method} ${fullPath}).${operation.description ? ` ${operation.description}` : ""}`,
    inputSchema: standAlone(properties, required, components),
    annotations: { readOnlyHint: method === "GET" },
    call: async (args, { send }) =>
      answerResult(
        await send({
          method,
          path: fill(fullPath, args),
          query: Object.fromEntries(queryNames.map((name) => [name, args[name]])),
          ...(body !== undefined && { json: args.body }),
        }),
      ),
  };
}
