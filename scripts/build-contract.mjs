#!/usr/bin/env node
// Builds contract/six-operations.schemas.json: a schemas-only copy of the shared OpenAPI contract.
//
// Usage: node scripts/build-contract.mjs [source.openapi.json] [output.json]
//   source defaults to <repo root>/../shared/contract/six-operations.openapi.json
//   output defaults to <repo root>/contract/six-operations.schemas.json
//
// Documentation-only keywords (description, summary, example, examples, externalDocs, schema title and
// $comment, x-source outside info, info.x-known-example-mismatches) are removed. The walk knows the
// OpenAPI object structure, so a schema property that is merely *named* "description" or "example" is kept.
// The output is deterministic: same input bytes give same output bytes.

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const workspaceRoot = resolve(repoRoot, "..");
const defaultSource = resolve(workspaceRoot, "shared/contract/six-operations.openapi.json");
const defaultOutput = resolve(repoRoot, "contract/six-operations.schemas.json");

const sourcePath = process.argv[2] ? resolve(process.argv[2]) : defaultSource;
const outputPath = process.argv[3] ? resolve(process.argv[3]) : defaultOutput;

/** Keys dropped from every OpenAPI object and every schema. */
const DOC_KEYS = new Set([
  "description",
  "summary",
  "example",
  "examples",
  "externalDocs",
  "x-source",
  "x-known-example-mismatches",
]);
/** Additional annotation-only keys dropped from schemas. */
const SCHEMA_DOC_KEYS = new Set(["title", "$comment"]);
/** Info fields that are kept (in source order); x-copied-from is appended. */
const INFO_KEEP = new Set(["title", "version", "license", "x-source", "x-conversions"]);
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const clone = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

/** Map over the values of a name -> value map (property names, status codes, media types...). */
const mapValues = (m, fn) =>
  isObject(m) ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, fn(v)])) : clone(m);
const mapArray = (a, fn) => (Array.isArray(a) ? a.map(fn) : clone(a));

/**
 * Walk one OpenAPI object. `handlers` maps a key to the transformer of its value; keys in DOC_KEYS (and
 * `extraDrop`) are removed; every other key is deep-copied verbatim.
 */
function walkObject(o, handlers = {}, extraDrop = new Set()) {
  if (!isObject(o)) return clone(o);
  const out = {};
  for (const [k, v] of Object.entries(o)) {
    if (DOC_KEYS.has(k) || extraDrop.has(k)) continue;
    const h = handlers[k];
    out[k] = h ? h(v) : clone(v);
  }
  return out;
}

const SCHEMA_MAP_KEYS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);
const SCHEMA_ONE_KEYS = new Set([
  "items",
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "contentSchema",
]);
const SCHEMA_ARRAY_KEYS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

function schema(s) {
  if (!isObject(s)) return clone(s); // boolean schemas
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (DOC_KEYS.has(k) || SCHEMA_DOC_KEYS.has(k)) continue;
    if (SCHEMA_MAP_KEYS.has(k)) out[k] = mapValues(v, schema);
    else if (SCHEMA_ONE_KEYS.has(k)) out[k] = Array.isArray(v) ? v.map(schema) : schema(v);
    else if (SCHEMA_ARRAY_KEYS.has(k)) out[k] = mapArray(v, schema);
    else out[k] = clone(v); // enum, const, default, type, required, format, discriminator, ...
  }
  return out;
}

const header = (h) => walkObject(h, { schema, content: (c) => mapValues(c, mediaType) });
const parameter = header;
const mediaType = (m) =>
  walkObject(m, {
    schema,
    encoding: (e) => mapValues(e, (enc) => walkObject(enc, { headers: (hs) => mapValues(hs, header) })),
  });
const requestBody = (b) => walkObject(b, { content: (c) => mapValues(c, mediaType) });
const link = (l) => walkObject(l, { server });
const response = (r) =>
  walkObject(r, {
    headers: (hs) => mapValues(hs, header),
    content: (c) => mapValues(c, mediaType),
    links: (ls) => mapValues(ls, link),
  });
const server = (s) => walkObject(s, { variables: (vs) => mapValues(vs, (v) => walkObject(v)) });
const securityScheme = (s) => walkObject(s);
const operation = (op) =>
  walkObject(op, {
    parameters: (ps) => mapArray(ps, parameter),
    requestBody,
    responses: (rs) => mapValues(rs, response),
    callbacks: (cbs) => mapValues(cbs, (cb) => mapValues(cb, pathItem)),
    servers: (ss) => mapArray(ss, server),
  });
function pathItem(p) {
  if (!isObject(p)) return clone(p);
  const handlers = { parameters: (ps) => mapArray(ps, parameter), servers: (ss) => mapArray(ss, server) };
  for (const m of HTTP_METHODS) handlers[m] = operation;
  return walkObject(p, handlers);
}
const components = (c) =>
  walkObject(
    c,
    {
      schemas: (m) => mapValues(m, schema),
      responses: (m) => mapValues(m, response),
      parameters: (m) => mapValues(m, parameter),
      requestBodies: (m) => mapValues(m, requestBody),
      headers: (m) => mapValues(m, header),
      securitySchemes: (m) => mapValues(m, securityScheme),
      links: (m) => mapValues(m, link),
      callbacks: (m) => mapValues(m, (cb) => mapValues(cb, pathItem)),
      pathItems: (m) => mapValues(m, pathItem),
    },
    new Set(["examples"]),
  );

function info(i, copiedFrom) {
  const out = {};
  for (const [k, v] of Object.entries(i ?? {})) if (INFO_KEEP.has(k)) out[k] = clone(v);
  out["x-copied-from"] = copiedFrom;
  return out;
}

const toPosix = (p) => p.split(sep).join("/");

const sourceBytes = readFileSync(sourcePath);
const doc = JSON.parse(sourceBytes.toString("utf8"));
const rel = relative(workspaceRoot, sourcePath);
const sourceLabel = rel && !rel.startsWith("..") && !isAbsolute(rel) ? toPosix(rel) : toPosix(sourcePath);
const xSource = isObject(doc.info?.["x-source"]) ? doc.info["x-source"] : {};

const copiedFrom = {
  note:
    "Schemas-only copy of shared/contract/six-operations.openapi.json, which was assembled from the vendor's " +
    "public OpenAPI repository (voucherifyio/voucherify-openapi, MIT license; see info.license and " +
    "info.x-source). Descriptions, summaries, examples and other documentation-only keys were stripped by " +
    "scripts/build-contract.mjs. Regenerate with `npm run contract`; do not edit by hand.",
  file: sourceLabel,
  sha256: createHash("sha256").update(sourceBytes).digest("hex"),
  upstream: {
    repo: xSource.repo ?? "https://github.com/voucherifyio/voucherify-openapi",
    license: xSource.repo_license ?? doc.info?.license?.name ?? "MIT",
  },
  generator: "scripts/build-contract.mjs",
  stripped: [
    "description",
    "summary",
    "example",
    "examples",
    "externalDocs",
    "title (in schemas)",
    "$comment",
    "x-source (outside info)",
    "info.x-known-example-mismatches",
  ],
};

const out = walkObject(doc, {
  info: (i) => info(i, copiedFrom),
  servers: (ss) => mapArray(ss, server),
  tags: (ts) => mapArray(ts, (t) => walkObject(t)),
  paths: (ps) => mapValues(ps, pathItem),
  webhooks: (ws) => mapValues(ws, pathItem),
  components,
});

mkdirSync(dirname(outputPath), { recursive: true });
writeFileSync(outputPath, `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(
  `wrote ${toPosix(relative(process.cwd(), outputPath)) || outputPath} from ${sourceLabel}\n`,
);
