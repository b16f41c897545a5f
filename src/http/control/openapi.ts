import { z } from "zod";
import { ADMIN_TOKEN_HEADER } from "./admin-token.js";
import {
  INPUT_COMPONENTS,
  type JsonSchema,
  OUTPUT_COMPONENTS,
  postedDocumentComponent,
} from "./components.js";
import { type ControlRoute, paramsOf } from "./route-table.js";
import { VERSION } from "./version.js";

const ERRORS: Record<number, { text: string; keys: readonly string[] }> = {
  400: { text: "Invalid input (details name the property or parameter)", keys: ["invalid_payload"] },
  401: { text: "The admin token is missing or wrong (only when the server has one)", keys: ["unauthorized"] },
  404: { text: "Unknown project, or unknown record in it", keys: ["not_found"] },
  409: { text: "Conflicts with the state of the project or server", keys: ["conflict"] },
  413: { text: "Body over the size limit", keys: ["query_too_large"] },
  415: { text: "A body in another type than JSON", keys: ["unsupported_media_type"] },
};

type Converted = (schema: z.ZodType) => JsonSchema;

/** An OpenAPI 3.1 document of these control routes (table.ts serves the one of its table). */
export function openApiOf(routes: readonly ControlRoute[]): JsonSchema {
  const outputs = converter(
    OUTPUT_COMPONENTS,
    "output",
    routes.flatMap((r) => (r.output ? [r.output] : [])),
  );
  const inputs = converter(
    INPUT_COMPONENTS,
    "input",
    routes.flatMap((r) => [...(r.body ? [r.body] : []), ...(r.query ? [r.query] : [])]),
  );
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const row of routes) {
    const path = `/__mock${row.path}`;
    paths[path] = {
      ...paths[path],
      [row.method.toLowerCase()]: operation(row, outputs.schemaOf, inputs.schemaOf),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "loyalty-mock control API",
      version: VERSION,
      description:
        "Steers the emulator: projects (tenants), their clocks, API keys, request journal, fault rules, settings, " +
        "webhook endpoints and deliveries, named snapshots, read-only views of their data, and a live feed of its changes. Errors use the service's error object.",
    },
    security: [{}, { adminToken: [] }],
    components: {
      securitySchemes: { adminToken: { type: "apiKey", in: "header", name: ADMIN_TOKEN_HEADER } },
      schemas: {
        ...outputs.components,
        ...inputs.components,
        PostedProjectDocument: postedDocumentComponent(),
      },
    },
    paths,
  };
}

/**
 * Converts the named schemas and the routes' own in one pass of zod's registry conversion, so that a named schema
 * met inside another becomes a $ref; the routes' own schemas are then written inline where the route uses them.
 */
function converter(
  named: Readonly<Record<string, z.ZodType>>,
  io: "input" | "output",
  used: readonly z.ZodType[],
): { components: Record<string, JsonSchema>; schemaOf: Converted } {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  for (const [id, schema] of Object.entries(named)) {
    registry.add(schema, { id });
    names.set(schema, id);
  }
  const inline = new Map<z.ZodType, string>();
  for (const schema of used)
    if (!registry.has(schema) && !inline.has(schema)) {
      const id = `inline-${inline.size}`;
      registry.add(schema, { id });
      inline.set(schema, id);
    }
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  });
  const clean = (id: string): JsonSchema => {
    const { $schema: _dialect, $id: _id, ...rest } = (schemas[id] ?? {}) as JsonSchema;
    return rest;
  };
  const components = Object.fromEntries([...names.values()].map((id) => [id, clean(id)]));
  const schemaOf: Converted = (schema) => {
    const name = names.get(schema);
    return name === undefined ? clean(inline.get(schema) ?? "") : { $ref: `#/components/schemas/${name}` };
  };
  return { components, schemaOf };
}

function operation(row: ControlRoute, output: Converted, input: Converted): JsonSchema {
  const params = paramsOf(row.path);
  const statuses = new Map<number, readonly string[]>([[401, ERRORS[401]?.keys ?? []]]);
  if (params.length > 0) statuses.set(404, ERRORS[404]?.keys ?? []);
  for (const [status, keys] of Object.entries(row.errors ?? {})) statuses.set(Number(status), keys);
  if (row.body) for (const status of [400, 413, 415]) statuses.set(status, ERRORS[status]?.keys ?? []);
  const responses: JsonSchema = { [row.status ?? 200]: success(row, output) };
  for (const status of [...statuses.keys()].sort())
    responses[status] = {
      description: `${ERRORS[status]?.text}: ${statuses.get(status)?.join(", ")}`,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  return {
    tags: [row.tag],
    summary: row.summary,
    ...(row.description && { description: row.description }),
    parameters: [
      ...params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
      ...queryParameters(row, input),
    ],
    ...(row.body && {
      requestBody: { required: true, content: { "application/json": { schema: input(row.body) } } },
    }),
    responses,
  };
}

function success(row: ControlRoute, output: Converted): JsonSchema {
  if (row.status === 204) return { description: "Success, no content" };
  const type = row.stream ?? "application/json";
  const schema = row.output ? output(row.output) : {};
  return { description: row.outputDescription ?? "Success", content: { [type]: { schema } } };
}

function queryParameters(row: ControlRoute, input: Converted): JsonSchema[] {
  if (!row.query) return [];
  const { properties = {}, required = [] } = input(row.query) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.includes(name),
    ...(row.queryHelp?.[name] && { description: row.queryHelp[name] }),
    schema,
  }));
}
