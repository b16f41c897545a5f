import { z } from "zod";
import { projectKeyOf } from "../../clients/play/project-key.js";
import { paramsOf } from "../../http/control/route-table.js";
import type { ExampleIds } from "../../http/operations/row.js";
import { OPERATIONS, type Operation } from "../../http/operations/table.js";
import { expectOk, type ServerCall } from "../server-client.js";
import type { JsonSchema } from "./json-schema.js";
import { answerResult, type Tool, type ToolContext } from "./tool.js";

/** The demo's records, for each tool's example arguments (fixtures/README.md lists them). */
const DEMO_IDS: ExampleIds = {
  campaign: "camp_demo_loyalty",
  location: "loc_demo_circle",
  event: { name: "cart_abandoned" },
  tierStructure: "lts_d0000000000000001",
  incentive: "linc_d0000000000000101",
  customer: "ada@example.com",
  n: 10_000,
};

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The row's body as JSON Schema: its input schema's `body` when it has one, a form's fields from its example. */
function bodySchemaOf(row: Operation): { body?: JsonSchema; defs?: JsonSchema } {
  if (row.body === "none") return {};
  if (row.body === "form") {
    const fields = Object.keys((row.example(DEMO_IDS).body ?? {}) as Record<string, unknown>);
    return {
      body: {
        type: "object",
        description: "The form's fields (sent as application/x-www-form-urlencoded)",
        properties: Object.fromEntries(fields.map((field) => [field, { type: "string" }])),
        additionalProperties: { type: "string" },
      },
    };
  }
  if (row.input === undefined) return {};
  const converted = z.toJSONSchema(row.input, { io: "input", unrepresentable: "any" }) as JsonSchema & {
    properties?: { body?: JsonSchema };
    $defs?: JsonSchema;
  };
  const body = converted.properties?.body;
  return body === undefined ? {} : { body, ...(converted.$defs && { defs: converted.$defs }) };
}

/**
 * One tool per row of the operation table: the operation called through the public API as an application calls
 * it, with the project's key pair (its first active key, from the control API, unless `app_id` and `app_token`
 * are given), and for a v2 operation an OAuth token got first, as the v2 operations ask for both. A new row is a
 * new tool.
 */
export function operationTools(rows: readonly Operation[] = OPERATIONS): Tool[] {
  return rows.map((row) => {
    const params = paramsOf(row.path);
    const { body, defs } = bodySchemaOf(row);
    const example = row.example(DEMO_IDS);
    const properties: Record<string, unknown> = {
      projectId: { type: "string", description: "The project whose key pair is used (demo unless given)" },
      ...Object.fromEntries(
        params.map((name) => [name, { type: "string", description: `The path's {${name}}` }]),
      ),
      ...(body !== undefined && { body }),
      app_id: {
        type: "string",
        description: "A key pair of the project to use instead of its first active key",
      },
      app_token: { type: "string", description: "With app_id" },
    };
    const exampleArgs = {
      projectId: "demo",
      ...example.params,
      ...(example.body !== undefined && { body: example.body }),
    };
    return {
      name: `operation_${snake(row.name)}`,
      title: row.title,
      description:
        `${row.title}: ${row.method} ${row.path}, through the public API with the project's key pair` +
        `${row.auth.v2 ? " and an OAuth token got first (v2 asks for both)" : ""}. Answers the status, the request id (the journal's) and the body, the service's error object on a refusal. ` +
        `Example arguments in the demo project: ${JSON.stringify(exampleArgs)}`,
      inputSchema: {
        type: "object",
        properties,
        ...(params.length > 0 && { required: params }),
        additionalProperties: false,
        ...(defs !== undefined && { $defs: defs }),
      },
      annotations: { readOnlyHint: row.method === "GET" },
      call: async (args, context) => answerResult(await context.send(await callOf(row, args, context))),
    };
  });
}

/** The HTTP call a tool's arguments make. */
async function callOf(
  row: Operation,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<ServerCall> {
  const projectId = typeof args.projectId === "string" ? args.projectId : "demo";
  const given = [args.app_id, args.app_token].every((value) => typeof value === "string");
  const keys = given
    ? { appId: String(args.app_id), appToken: String(args.app_token) }
    : await projectKeyOf(context.target, projectId, context.target.adminToken);
  let bearer: string | undefined;
  if (row.auth.v2) {
    const token = expectOk(
      await context.send({
        method: "POST",
        path: "/v1/oauth/token",
        keys,
        form: { grant_type: "client_credentials", scope: "api" },
      }),
    );
    bearer = typeof token.access_token === "string" ? token.access_token : undefined;
  }
  const path = row.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(args[name] ?? "")),
  );
  const body = args.body;
  return {
    method: row.method,
    path,
    keys: { ...keys, bearer },
    ...(row.body === "form" && { form: (body ?? {}) as Record<string, string> }),
    ...(row.body === "json" && body !== undefined && { json: body }),
  };
}
