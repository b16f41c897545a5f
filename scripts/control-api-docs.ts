// Writes docs/reference/control-api.md from the control API's OpenAPI document, which is generated from the
// route table (src/http/control/table.ts): `npm run docs:control`. test/docs/control-api-docs.test.ts fails when
// the committed file differs from what this would write.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { controlOpenApi } from "../src/http/control/table.js";

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  format?: string;
  additionalProperties?: Schema | boolean;
};
interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: Schema;
}
interface Operation {
  tags: string[];
  summary: string;
  description?: string;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  info: { description: string };
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
}

export const TARGET = new URL("../docs/reference/control-api.md", import.meta.url);

const refName = (ref: string) => ref.split("/").at(-1) ?? ref;
const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** A schema in a few words: `string (date-time)`, `array of Fault`, `"list"`, `integer or null`. */
export function typeOf(schema: Schema | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return "any";
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(", ");
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map(typeOf).join(" or ");
  const dataRef = schema.properties?.data_ref?.const;
  // The list envelope: { object: "list", data_ref, <data_ref>: [...], total }.
  if (typeof dataRef === "string")
    return `list of ${typeOf(schema.properties?.[dataRef]?.items)} (in \`${dataRef}\`)`;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return types
    .map((type) => {
      if (type === "array") return `array of ${typeOf(schema.items)}`;
      if (type === "string" && schema.format) return `string (${schema.format})`;
      return type;
    })
    .join(" or ");
}

function fields(doc: Document, schema: Schema): string[] {
  const resolved = schema.$ref ? (doc.components.schemas[refName(schema.$ref)] ?? {}) : schema;
  const alternatives = resolved.oneOf ?? resolved.anyOf;
  if (!resolved.properties && alternatives)
    return [
      `One of ${alternatives.map(typeOf).join(", ")}.`,
      "",
      ...alternatives.flatMap((one) => fields(doc, one)),
    ];
  if (!resolved.properties) return [`${typeOf(schema)}`, ""];
  const required = new Set(resolved.required ?? []);
  return [
    ...(schema.$ref ? [`\`${refName(schema.$ref)}\`:`, ""] : []),
    "| field | type | required | description |",
    "| --- | --- | --- | --- |",
    ...Object.entries(resolved.properties).map(
      ([name, field]) =>
        `| \`${name}\` | ${cell(typeOf(field))} | ${required.has(name) ? "yes" : "no"} | ${cell(field.description ?? "")} |`,
    ),
    "",
  ];
}

function operationText(doc: Document, method: string, path: string, op: Operation): string[] {
  const lines = [`### ${method.toUpperCase()} ${path}`, "", `${op.summary}.`, ""];
  if (op.description) lines.push(op.description, "");
  if (op.parameters.length > 0) {
    lines.push(
      "Parameters:",
      "",
      "| name | in | required | type | description |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const p of op.parameters)
      lines.push(
        `| \`${p.name}\` | ${p.in} | ${p.required ? "yes" : "no"} | ${cell(typeOf(p.schema))} | ${cell(p.description ?? "")} |`,
      );
    lines.push("");
  }
  const body = op.requestBody?.content["application/json"]?.schema;
  if (body) lines.push("Body (JSON):", "", ...fields(doc, body));
  lines.push("Responses:", "");
  for (const [status, response] of Object.entries(op.responses)) {
    const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
    const shape = media ? ` (${type}: ${typeOf(media.schema)})` : "";
    lines.push(`- ${status}: ${response.description}${status < "400" ? shape : ""}`);
  }
  lines.push("");
  return lines;
}

/** The reference page: every route by tag, in the table's order, then the named schemas' fields. */
export function controlApiMarkdown(doc: Document = controlOpenApi() as unknown as Document): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags[0] ?? "other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), ...operationText(doc, method, path, op)]);
    }
  const lines = [
    "# Control API reference",
    "",
    "<!-- Generated by `npm run docs:control` from the control API's OpenAPI document; do not edit by hand. -->",
    "",
    doc.info.description,
    "",
    "The same description, in OpenAPI 3.1, is served at `GET /__mock/openapi.json`. When the server has an admin " +
      "token (LOYALTY_MOCK_ADMIN_TOKEN), every call carries it in the `X-Mock-Admin-Token` header. Errors use the " +
      "service's error object (`Error` below); a response's error keys follow its status.",
    "",
  ];
  for (const [tag, text] of byTag) lines.push(`## ${tag}`, "", ...text);
  lines.push("## Schemas", "");
  for (const [name, schema] of Object.entries(doc.components.schemas).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    if (!schema.properties) continue;
    lines.push(`### ${name}`, "", ...(schema.description ? [schema.description, ""] : []));
    lines.push(...fields(doc, schema));
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TARGET, controlApiMarkdown());
  console.log(`wrote ${fileURLToPath(TARGET)}`);
}
