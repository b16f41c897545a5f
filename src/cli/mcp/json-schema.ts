/**
 * JSON Schema pieces for the tools' input schemas. A tool's schema must stand alone (an MCP client reads it
 * without the document it came from), so the named schemas a route's schema refers to in the control API's
 * OpenAPI document (`#/components/schemas/Fault`) come along under `$defs`, each reference rewritten to point there.
 */
export type JsonSchema = Record<string, unknown>;

const COMPONENT = "#/components/schemas/";

/** A copy of `node` with every component reference pointing into `$defs`, and the names it referred to. */
function rewritten(node: unknown, names: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((item) => rewritten(item, names));
  if (typeof node !== "object" || node === null) return node;
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith(COMPONENT)) {
      const name = value.slice(COMPONENT.length);
      names.add(name);
      copy[key] = `#/$defs/${name}`;
    } else copy[key] = rewritten(value, names);
  }
  return copy;
}

/**
 * An object schema of these properties, standing alone: every component they refer to, and every one those
 * refer to in turn, copied under `$defs` from `components`.
 */
export function standAlone(
  properties: Readonly<Record<string, unknown>>,
  required: readonly string[],
  components: Readonly<Record<string, unknown>>,
): JsonSchema {
  const names = new Set<string>();
  const schema: JsonSchema = {
    type: "object",
    properties: rewritten(properties, names),
    ...(required.length > 0 && { required: [...required] }),
    additionalProperties: false,
  };
  const defs: JsonSchema = {};
  for (const name of names) {
    // Read as the set grows: a definition's own references are added to it, and met in turn.
    if (Object.hasOwn(defs, name)) continue;
    defs[name] = rewritten(components[name] ?? {}, names);
  }
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  return schema;
}
