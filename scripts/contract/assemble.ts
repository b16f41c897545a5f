/**
 * Builds the three contract files the tests read from the vendor's public files (scripts/contract/sources.ts pins
 * them): the six-operation contract (an OpenAPI 3.1 subset, with the conversions its info.x-conversions lists), the
 * webhook description (the vendor's file, unchanged) and the list of every vendor operation. Everything here is the
 * recipe: which operation comes from which file, what is merged in, what is converted and patched. The schemas
 * themselves are read from the downloaded files at run time; none is written here.
 */
import { isDeepStrictEqual } from "node:util";
import {
  HEAD_COMMIT,
  LAST_CHANGED_IN,
  LOYALTY_V2_BLOB,
  LOYALTY_V2_COMMIT,
  LOYALTY_V2_INTRODUCED_IN,
  VENDOR_FILES,
  VENDOR_REPOSITORY,
  type VendorFileName,
} from "./sources.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export interface OpenApiDocument extends JsonObject {
  paths: { [path: string]: JsonObject };
  components: { [kind: string]: { [name: string]: Json } };
}
/** The parsed vendor files, by their name in VENDOR_FILES. */
export type VendorDocuments = Record<VendorFileName, JsonObject>;

export const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
const APP_KEYS = ["X-App-Id", "X-App-Token"];

export function fail(message: string): never {
  throw new Error(`contract assembly: ${message}`);
}

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function objectAt(value: Json | undefined, what: string): JsonObject {
  if (!isObject(value)) fail(`${what} is not an object`);
  return value;
}

export const clone = <T extends Json>(value: T): T => structuredClone(value);

/** `/v1/oauth/token` -> `~1v1~1oauth~1token` (RFC 6901). */
export const pointerToken = (token: string): string => token.replace(/~/g, "~0").replace(/\//g, "~1");

export function asDocument(document: JsonObject, file: VendorFileName): OpenApiDocument {
  objectAt(document.paths, `${VENDOR_FILES[file].path}: paths`);
  objectAt(document.components, `${VENDOR_FILES[file].path}: components`);
  return document as OpenApiDocument;
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAPI 3.0 nullability, written the 3.1 way.

/** Keywords whose values are data, never schemas: a `nullable` inside them is not the keyword. */
const DATA_KEYWORDS = new Set(["example", "examples", "default", "enum", "const"]);

/**
 * `{type: T, nullable: true}` -> `{type: [T, "null"]}`; with an `enum`, null is appended to it; with a `oneOf`,
 * `{type: "null"}` is appended to it. A `nullable` that is a property's name (an object) is left alone, and so is
 * anything under a data keyword. A nullable schema with neither a type nor a oneOf fails: the recipe would need a
 * rule for it.
 */
export function nullableTo31(node: Json, where = "#"): Json {
  if (Array.isArray(node)) return node.map((item, index) => nullableTo31(item, `${where}/${index}`));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "nullable" && typeof value === "boolean") continue;
    out[key] = DATA_KEYWORDS.has(key) ? value : nullableTo31(value, `${where}/${pointerToken(key)}`);
  }
  if (node.nullable !== true) return out;
  if (out.type === undefined && out.oneOf === undefined)
    fail(`${where}: nullable with neither type nor oneOf`);
  if (typeof out.type === "string") out.type = [out.type, "null"];
  else if (Array.isArray(out.type) && !out.type.includes("null")) out.type = [...out.type, "null"];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (Array.isArray(out.oneOf)) out.oneOf = [...out.oneOf, { type: "null" }];
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The recipe of the six operations.

interface OperationRecipe {
  path: string;
  method: string;
  /** The file the operation (and its path-level parameters) is taken from. */
  from: VendorFileName;
  /** A documentation file whose non-2xx responses are merged in (the production file keeps only 2xx). */
  errorsFrom?: VendorFileName;
  /** What x-source says besides the file, commit and pointer. */
  notes?: string[];
  merged?: (file: string) => JsonObject[];
}

const SDK_NOTE =
  "Preferred over reference/readonly-sdks/js/OpenAPI.json because that SDK copy drops the 400 responses and the required list of the request body.";

const RECIPE: readonly OperationRecipe[] = [
  {
    path: "/v1/oauth/token",
    method: "post",
    from: "oauth",
    notes: [
      SDK_NOTE,
      'Removed the meaningless "required": ["client_credentials"] keyword from the grant_type string property of OAuthTokenGenerateRequestBody.',
    ],
  },
  {
    path: "/v1/loyalties/{campaignId}/members",
    method: "post",
    from: "production",
    errorsFrom: "loyalties",
    merged: (file): JsonObject[] => [
      {
        what: "responses 400 and 404 (prod.json keeps only 2xx responses)",
        file,
        commit: HEAD_COMMIT,
        file_last_changed_in: lastChangedIn(file),
        pointer: `/paths/${pointerToken("/v1/loyalties/{campaignId}/members")}/post/responses`,
      },
      {
        what: "security rewritten as alternatives (app keys OR OAuth token) as in documentation/openapi/loyalties.json; prod.json lists all three schemes in one requirement object (which would literally mean AND)",
        file,
      },
    ],
  },
  {
    path: "/v1/locations/{locationId}",
    method: "get",
    from: "production",
    notes: [
      "No error responses are documented for this operation in any source (documentation/openapi/locations.json has only 200 too).",
      "security rewritten as alternatives as in documentation/openapi/locations.json.",
    ],
  },
  {
    path: "/v1/events",
    method: "post",
    from: "production",
    errorsFrom: "events",
    merged: (file): JsonObject[] => [
      {
        what: "response 400 (prod.json keeps only 2xx). NOTE: its only example is a 404 not_found customer body, copied verbatim.",
        file,
        commit: HEAD_COMMIT,
        file_last_changed_in: lastChangedIn(file),
        pointer: `/paths/${pointerToken("/v1/events")}/post/responses/400`,
      },
      { what: "security rewritten as alternatives as in documentation/openapi/events.json" },
    ],
    notes: [
      'documentation/openapi/events.json requires ["event","customer"] in the request body and ["object","type","customer","referral","loyalty","metadata"] in the response; prod.json (kept here) requires only "customer" in both.',
    ],
  },
  {
    path: "/v2/loyalties/tier-structures/{id}/tiers",
    method: "post",
    from: "loyaltiesV2",
    notes: [
      'Source has no operation-level security; its root security is one object {bearerAuth, X-App-Id, X-App-Token} (AND). Written here as alternatives, as the file itself was later fixed in commit cd8ba8da6d364a2b966dc5362f425626f0a9f461 ("Fix security to OR").',
      "At HEAD this path is /v2/loyalties/tier-structures/{tierStructureId}/tiers with a different TierCreateRequest (qualification_rules types POINTS / POINTS_AND_SEGMENT) and no 403 response.",
    ],
  },
  {
    path: "/v2/loyalties/incentives/{id}",
    method: "delete",
    from: "loyaltiesV2",
    notes: [
      "Security written as alternatives (see createTier note).",
      "At HEAD incentives were renamed benefits: DELETE /v2/loyalties/benefits/{benefitId} (ids lben_...), whose description says resource_in_use is returned as 400, not 409.",
    ],
  },
];

/** Where the service spec (shared/spec/service.md) overrides the public schema, and the one stray keyword. */
const SCHEMA_PATCHES: Record<string, (schema: JsonObject) => JsonObject> = {
  OAuthTokenGenerateRequestBody(schema) {
    const grantType = objectAt(objectAt(schema.properties, "properties").grant_type, "grant_type");
    if (!isDeepStrictEqual(grantType.required, ["client_credentials"])) fail("grant_type: no stray required");
    delete grantType.required;
    return schema;
  },
  LoyaltyMember(schema) {
    const properties = objectAt(schema.properties, "LoyaltyMember.properties");
    for (const name of ["validity_timeframe", "validity_day_of_week"]) {
      const property = objectAt(properties[name], `LoyaltyMember.${name}`);
      if (Object.keys(property).join() !== "$ref") fail(`LoyaltyMember.${name} is not a bare $ref`);
      properties[name] = { oneOf: [property, { type: "null" }] };
    }
    return schema;
  },
  PolygonCoordinates(schema) {
    const ring = objectAt(schema.items, "PolygonCoordinates.items");
    if (!isDeepStrictEqual(ring.items, { type: "integer" }))
      fail("PolygonCoordinates is not array<array<integer>>");
    ring.items = { type: "array", minItems: 2, items: { type: "number" } };
    const { title, ...rest } = schema;
    return {
      ...(title === undefined ? {} : { title }),
      description: "GeoJSON Polygon coordinates: linear rings of [longitude, latitude] positions.",
      ...rest,
    };
  },
};

const OAUTH_SCHEME_NOTE =
  'Copied from production/readOnly-openAPI.json. The sources model the v1 OAuth token as an oauth2 implicit flow whose authorizationUrl is the token endpoint; in practice the token is obtained with POST /v1/oauth/token (client_credentials, app keys in X-App-Id/X-App-Token) and sent as a Bearer token (token_type "Bearer" is the header prefix).';

const TAGS: JsonObject[] = [
  { name: "OAuth" },
  {
    name: "Loyalties",
    description: "Legacy loyalty API (/v1/loyalties); the operation is marked deprecated in the sources.",
  },
  { name: "Locations" },
  { name: "Events" },
  { name: "Tier Structures", description: "Loyalty v2 (BETA at the source commit)." },
  { name: "Incentives", description: "Loyalty v2 (BETA at the source commit). Renamed to Benefits later." },
];

const CONVERSIONS = [
  "Target version OpenAPI 3.1.0 (the Loyalty v2 source is 3.1.0; all other sources are 3.0.1).",
  'In every Schema Object taken from a 3.0.1 source: "nullable: true" removed and "null" added to "type" (type: [T, "null"]); where such a schema also has "enum", null was appended to the enum; where it also has "oneOf", {type: "null"} was appended to the oneOf (only Location.properties.shape).',
  'No 3.0 boolean exclusiveMinimum/exclusiveMaximum were present. Schema-level "example" kept (allowed, deprecated, in 3.1).',
  'Empty "required": [] arrays kept (valid in 3.1/JSON Schema 2020-12).',
  'OAuthTokenGenerateRequestBody.properties.grant_type: removed a stray "required": ["client_credentials"] keyword.',
  "Security of the v1 operations written as alternatives [{X-App-Id, X-App-Token}, {X-Voucherify-OAuth: scopes}] as in documentation/openapi/*.json; security of the v2 operations as [{X-App-Id, X-App-Token}, {bearerAuth}] as in the later loyalties-v2.json.",
  "Error responses (non-2xx) of /v1/loyalties/{campaignId}/members and /v1/events merged from documentation/openapi/loyalties.json and events.json because production/readOnly-openAPI.json keeps only 2xx responses. Error schema taken from documentation/openapi/oauth.json (identical in loyalties.json and events.json).",
  "Only the listed methods are kept for each path (GET members, GET tiers, GET/PUT incentive dropped).",
  "Patched where the service spec (shared/spec/service.md) overrides the public schema: LoyaltyMember.validity_timeframe and validity_day_of_week may be null; PolygonCoordinates follows GeoJSON (rings of [lon, lat] number pairs), so that the public Polygon example validates.",
];

const KNOWN_EXAMPLE_MISMATCHES = [
  'POST /v1/loyalties/{campaignId}/members request examples "Using source ID" and "Using unique Voucherify assigned ID" send customer as a plain string, but the schema (CreatePublicationBase.customer -> Customer) only allows an object.',
  "POST /v1/loyalties/{campaignId}/members 200 example has validity_timeframe: null and validity_day_of_week: null, but the referenced ValidityTimeframe / ValidityDayOfWeek schemas are not nullable.",
  'GET /v1/locations/{locationId} "Polygon Example": geojson.coordinates is a 3-level array of floats ([[[lon,lat],...]]), while PolygonCoordinates is array<array<integer>>, so the example matches neither oneOf branch.',
  "POST /v1/events 400 example body has code 404 / key not_found (customer not found).",
];

function lastChangedIn(path: string): string {
  return LAST_CHANGED_IN[path] ?? fail(`no last-changed commit pinned for ${path}`);
}

/** How x-source names a file: `path` for HEAD files, `path@<short commit>` for the Loyalty v2 one. */
function originName(file: VendorFileName): string {
  const { commit, path } = VENDOR_FILES[file];
  return commit === HEAD_COMMIT ? path : `${path}@${commit.slice(0, 8)}`;
}

function operationSource(recipe: OperationRecipe): JsonObject {
  const { commit, path } = VENDOR_FILES[recipe.from];
  const pointer = `/paths/${pointerToken(recipe.path)}/${recipe.method}`;
  const where: JsonObject =
    commit === LOYALTY_V2_COMMIT
      ? {
          file: path,
          repo: VENDOR_REPOSITORY,
          commit,
          blob: LOYALTY_V2_BLOB,
          content_introduced_in: LOYALTY_V2_INTRODUCED_IN,
          pointer,
        }
      : { file: path, repo: VENDOR_REPOSITORY, commit, file_last_changed_in: lastChangedIn(path), pointer };
  if (recipe.merged && recipe.errorsFrom) where.merged = recipe.merged(VENDOR_FILES[recipe.errorsFrom].path);
  if (recipe.notes) where.notes = recipe.notes;
  return where;
}

/**
 * A security requirement that names the app keys and another scheme in one object (which OpenAPI reads as AND)
 * written as the alternatives the service accepts: the app keys, or the other scheme.
 */
function asAlternatives(security: Json | undefined, what: string): Json[] {
  if (!Array.isArray(security)) fail(`${what}: no security requirement`);
  return security.flatMap((requirement) => {
    const entries = Object.entries(objectAt(requirement, `${what}: security`));
    const keys = entries.filter(([name]) => APP_KEYS.includes(name));
    const others = entries.filter(([name]) => !APP_KEYS.includes(name));
    return keys.length > 0 && others.length > 0
      ? [Object.fromEntries(keys), Object.fromEntries(others)]
      : [requirement];
  });
}

function refsIn(node: Json, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsIn(item, found);
  else if (isObject(node))
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") found.push(value);
      else refsIn(value, found);
    }
  return found;
}

/** Every component (kind and name) that `node` refers to, directly or through other components of `document`. */
export function componentClosure(
  node: Json,
  document: OpenApiDocument,
  file: VendorFileName,
): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const pending = refsIn(node);
  const seen = new Set<string>();
  while (pending.length > 0) {
    const ref = pending.pop() as string;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
    if (!match?.[1] || !match[2]) fail(`${VENDOR_FILES[file].path}: unsupported $ref ${ref}`);
    const [, kind, name] = match;
    const target = document.components[kind]?.[name];
    if (target === undefined) fail(`${VENDOR_FILES[file].path}: dangling $ref ${ref}`);
    found.set(kind, [...(found.get(kind) ?? []), name]);
    refsIn(target, pending);
  }
  return found;
}

/** A component as the contract keeps it: 3.0 nullability converted, and the recipe's patch applied. */
function componentFrom(document: OpenApiDocument, file: VendorFileName, kind: string, name: string): Json {
  let value = clone(document.components[kind]?.[name] as Json);
  if (String(document.openapi).startsWith("3.0")) value = nullableTo31(value, `#/components/${kind}/${name}`);
  const patch = kind === "schemas" ? SCHEMA_PATCHES[name] : undefined;
  if (patch) value = patch(objectAt(value, `${VENDOR_FILES[file].path} ${kind}/${name}`));
  return value;
}

const COMPONENT_KINDS = ["securitySchemes", "parameters", "responses", "schemas"] as const;

/** `six-operations.openapi.json`: the six operations and every component they use, from the vendor's files. */
export function assembleSixOperations(documents: VendorDocuments): JsonObject {
  const components: Record<(typeof COMPONENT_KINDS)[number], JsonObject> = {
    securitySchemes: {},
    parameters: {},
    responses: {},
    schemas: {},
  };
  const origins: Record<string, string> = {};
  const paths: JsonObject = {};

  /** Adds the components a part of an operation uses, each kind sorted by name, first source kept. */
  const collect = (node: Json, file: VendorFileName) => {
    const document = asDocument(documents[file], file);
    const closure = componentClosure(node, document, file);
    for (const kind of ["parameters", "responses", "schemas"] as const) {
      for (const name of [...new Set(closure.get(kind) ?? [])].sort()) {
        const value = componentFrom(document, file, kind, name);
        const kept = components[kind][name];
        if (kept === undefined) {
          components[kind][name] = value;
          origins[`#/components/${kind}/${name}`] = originName(file);
        } else if (!isDeepStrictEqual(kept, value)) {
          fail(
            `#/components/${kind}/${name} differs between ${origins[`#/components/${kind}/${name}`]} and ${originName(file)}`,
          );
        }
      }
    }
  };

  for (const recipe of RECIPE) {
    const what = `${recipe.method.toUpperCase()} ${recipe.path}`;
    const document = asDocument(documents[recipe.from], recipe.from);
    const item = objectAt(document.paths[recipe.path], `${VENDOR_FILES[recipe.from].path}: ${recipe.path}`);
    const operation = clone(objectAt(item[recipe.method], `${VENDOR_FILES[recipe.from].path}: ${what}`));
    const kept: JsonObject = {};
    for (const [key, value] of Object.entries(item))
      if (key === recipe.method || !HTTP_METHODS.has(key))
        kept[key] = key === recipe.method ? operation : clone(value);
    collect({ ...kept }, recipe.from);

    if (recipe.errorsFrom) {
      const docs = asDocument(documents[recipe.errorsFrom], recipe.errorsFrom);
      const source = objectAt(
        objectAt(docs.paths[recipe.path], `${VENDOR_FILES[recipe.errorsFrom].path}: ${recipe.path}`)[
          recipe.method
        ],
        `${VENDOR_FILES[recipe.errorsFrom].path}: ${what}`,
      );
      const errors = Object.fromEntries(
        Object.entries(objectAt(source.responses, `${what}: responses`)).filter(
          ([status]) => !/^2/.test(status),
        ),
      );
      if (Object.keys(errors).length === 0)
        fail(`${VENDOR_FILES[recipe.errorsFrom].path}: ${what} has no error response`);
      operation.responses = { ...objectAt(operation.responses, `${what}: responses`), ...clone(errors) };
      collect(errors, recipe.errorsFrom);
    }

    operation.security = asAlternatives(operation.security ?? document.security, what);
    for (const requirement of operation.security)
      for (const scheme of Object.keys(objectAt(requirement, what)))
        if (components.securitySchemes[scheme] === undefined) {
          const value = clone(
            document.components.securitySchemes?.[scheme] ?? fail(`${what}: no security scheme ${scheme}`),
          );
          components.securitySchemes[scheme] =
            scheme === "X-Voucherify-OAuth"
              ? { ...objectAt(value, scheme), description: OAUTH_SCHEME_NOTE }
              : value;
        }
    operation["x-source"] = operationSource(recipe);
    paths[recipe.path] = kept;
  }

  const production = documents.production;
  const sortedOrigins = Object.fromEntries(
    Object.entries(origins).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const files: JsonObject = {};
  for (const file of ["production", "oauth", "loyalties", "events", "loyaltiesV2"] as const) {
    const { commit, path } = VENDOR_FILES[file];
    files[path] =
      commit === HEAD_COMMIT
        ? `HEAD; last changed in ${lastChangedIn(path)}`
        : `commit ${commit} (blob ${LOYALTY_V2_BLOB.slice(0, 8)}; identical to the version written in ${LOYALTY_V2_INTRODUCED_IN})`;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Voucherify API - contract for six operations (mock server)",
      version: "v2018-08-01 (v1 parts) / 2.0.0 (Loyalty v2 parts)",
      description:
        "Self-contained subset of the public Voucherify OpenAPI files from voucherifyio/voucherify-openapi. Every operation carries x-source. See info.x-conversions for what was changed.",
      license: clone(objectAt(objectAt(production.info, "info").license, "info.license")),
      "x-source": {
        repo: VENDOR_REPOSITORY,
        repo_license: "MIT",
        head_commit: HEAD_COMMIT,
        files,
        component_origins: sortedOrigins,
      },
      "x-conversions": CONVERSIONS,
      "x-known-example-mismatches": KNOWN_EXAMPLE_MISMATCHES,
    },
    servers: clone(production.servers ?? fail("production: no servers")),
    tags: TAGS,
    paths,
    components,
  };
}

/** `vendor-operations.json`: every operation of the vendor's public reference, by path then method. */
export function listVendorOperations(reference: JsonObject): JsonObject {
  const { commit, path } = VENDOR_FILES.sdkReference;
  const operations: { method: string; path: string; operationId: string; tag: string }[] = [];
  for (const [template, item] of Object.entries(objectAt(reference.paths, `${path}: paths`)))
    for (const [method, operation] of Object.entries(objectAt(item, `${path}: ${template}`))) {
      if (!HTTP_METHODS.has(method)) continue;
      const { operationId, tags } = objectAt(operation, `${path}: ${method} ${template}`);
      const tag = Array.isArray(tags) ? tags[0] : undefined;
      if (typeof operationId !== "string" || typeof tag !== "string")
        fail(`${path}: ${method} ${template} has no operationId or tag`);
      operations.push({ method: method.toUpperCase(), path: template, operationId, tag });
    }
  // The order of the vendor's reference pages: paths as a reader sorts them (punctuation first, case aside).
  const collator = new Intl.Collator("en");
  operations.sort((a, b) => collator.compare(a.path, b.path) || collator.compare(a.method, b.method));
  return {
    source: { repository: VENDOR_REPOSITORY.replace(/^https:\/\//, ""), file: path, commit, license: "MIT" },
    note: "Every operation (method and path template) of the real service public reference, as data. Only six of them are emulated.",
    count: operations.length,
    operations,
  };
}
