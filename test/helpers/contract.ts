// Validates HTTP responses against the public contract, read at test time (it is the vendor's document, MIT, so the
// repository keeps no copy of it): from CONTRACT_FILE, ../shared/contract/ beside the repository, or the .contract/
// folder `npm run contract:fetch` fills (test/helpers/contract-files.ts). Found nowhere, every validation here is
// skipped and counted (test/helpers/contract-skips.ts), unless LOYALTY_MOCK_REQUIRE_CONTRACT=1.
import { readFileSync } from "node:fs";
import type { ErrorObject, ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { contractRequired, locateContractFile, missingContractMessage } from "./contract-files.js";
import { skippedWithout } from "./contract-skips.js";

interface MediaTypeObject {
  schema?: unknown;
}
interface ResponseObject {
  $ref?: string;
  content?: Record<string, MediaTypeObject>;
}
interface OperationObject {
  responses?: Record<string, ResponseObject>;
}
type PathItemObject = Record<string, unknown>;
interface ContractDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, unknown>;
    responses?: Record<string, ResponseObject>;
  };
}

/** Where the contract is read from (CONTRACT_FILE, ../shared/contract/, .contract/), or undefined: found nowhere. */
export function contractPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return locateContractFile("sixOperations", env)?.path;
}

/** Reads and parses the contract; a missing or unreadable file fails naming the path and how to point elsewhere. */
export function loadContract(path: string): ContractDocument {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(
      `contract: cannot read the OpenAPI contract at ${path} (${(error as NodeJS.ErrnoException).code ?? error}). ` +
        "Tests read it from CONTRACT_FILE, ../shared/contract/ beside the repository, or .contract/ " +
        "(`npm run contract:fetch`); set CONTRACT_FILE to its path otherwise.",
    );
  }
  return JSON.parse(text) as ContractDocument;
}

function findContract(): ContractDocument | undefined {
  const path = contractPath();
  if (path) return loadContract(path);
  if (contractRequired())
    throw new Error(`contract: ${missingContractMessage("sixOperations")} (LOYALTY_MOCK_REQUIRE_CONTRACT=1)`);
  return undefined;
}

/** The parsed contract document; undefined when it is found nowhere (its checks are then skipped and counted). */
export const contract: ContractDocument | undefined = findContract();

const SCHEMA_ID = "contract";
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

// Both packages are CommonJS: under NodeNext the default import is `module.exports`, whose `.default` (set by
// the packages themselves) is the class / plugin, at runtime under Node and Vite alike.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// The OpenAPI document is not a JSON Schema; register a wrapper that only carries the parts refs point into,
// so "#/components/schemas/..." refs resolve against it and "#/paths/..." pointers can be compiled directly.
if (contract) ajv.addSchema({ $id: SCHEMA_ID, components: contract.components, paths: contract.paths });

/** The contract, for what cannot be skipped: a test that needs it is declared with needsContract("sixOperations"). */
function required(): ContractDocument {
  if (!contract) throw new Error(`contract: ${missingContractMessage("sixOperations")}`);
  return contract;
}

const escapeToken = (token: string): string =>
  encodeURIComponent(token.replace(/~/g, "~0").replace(/\//g, "~1"));
const pointerRef = (tokens: readonly string[]): string =>
  `${SCHEMA_ID}#/${tokens.map(escapeToken).join("/")}`;

const validators = new Map<string, ValidateFunction>();
function validatorAt(tokens: readonly string[]): ValidateFunction {
  const ref = pointerRef(tokens);
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`contract: no schema at ${ref}`);
    validators.set(ref, validate);
  }
  return validate;
}

const ERROR_SCHEMA: readonly string[] = ["components", "schemas", "Error"];

/** Compiled validator for `#/components/schemas/Error` (the v1 error body); returns a boolean, sets `.errors`. */
export function errorBodyValidator(): ValidateFunction {
  required();
  return validatorAt(ERROR_SCHEMA);
}

const MAX_BODY_CHARS = 2000;
function describeBody(body: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(body) ?? String(body);
  } catch {
    text = String(body);
  }
  return text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}... (${text.length} chars)` : text;
}
function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return "(no details)";
  return errors
    .map((e) => {
      const params = Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : "";
      return `  ${e.instancePath || "(root)"} ${e.message ?? e.keyword}${params} [${e.schemaPath}]`;
    })
    .join("\n");
}

function fail(what: string, status: number, reason: string, body: unknown): never {
  throw new Error(`${what} -> ${status}: ${reason}\nbody: ${describeBody(body)}`);
}

function findOperation(method: string, pathTemplate: string): OperationObject | undefined {
  const m = method.toLowerCase();
  const { paths } = required();
  if (!HTTP_METHODS.has(m) || !Object.hasOwn(paths, pathTemplate)) return undefined;
  const item = paths[pathTemplate];
  const op = item && Object.hasOwn(item, m) ? item[m] : undefined;
  return op && typeof op === "object" ? (op as OperationObject) : undefined;
}

/** Pointer tokens of the application/json schema of one listed response (following a components $ref). */
function responseSchemaTokens(
  pathTemplate: string,
  method: string,
  statusKey: string,
  response: ResponseObject,
): readonly string[] | undefined {
  let tokens = ["paths", pathTemplate, method, "responses", statusKey];
  let resolved: ResponseObject | undefined = response;
  const seen = new Set<string>();
  while (resolved?.$ref !== undefined) {
    const ref: string = resolved.$ref;
    const match = /^#\/components\/responses\/([^/]+)$/.exec(ref);
    if (!match?.[1] || seen.has(ref)) throw new Error(`contract: unsupported response $ref ${ref}`);
    seen.add(ref);
    const name = match[1];
    resolved = required().components.responses?.[name];
    if (!resolved) throw new Error(`contract: dangling response $ref ${ref}`);
    tokens = ["components", "responses", name];
  }
  if (resolved?.content?.["application/json"]?.schema === undefined) return undefined;
  return [...tokens, "content", "application/json", "schema"];
}

function isEmptyBody(body: unknown): boolean {
  return (
    body === undefined ||
    body === null ||
    body === "" ||
    (typeof body === "object" && !Array.isArray(body) && Object.keys(body).length === 0)
  );
}

/**
 * Throws unless `body` matches the contract for `method pathTemplate` answering `status`.
 *
 * - A status the operation lists (exactly, or as a range key such as "4XX"): its application/json schema.
 * - An unlisted status >= 400: the schema of the first 4xx response the operation lists, else the Error schema.
 * - A method/path pair the contract does not have: the Error schema when status >= 400.
 * - Anything else (an unlisted 2xx/3xx, a success on an unknown route) throws.
 */
export function validateResponse(method: string, pathTemplate: string, status: number, body: unknown): void {
  if (skippedWithout(contract)) return;
  const m = method.toLowerCase();
  const what = `${method.toUpperCase()} ${pathTemplate}`;
  const op = findOperation(m, pathTemplate);

  let tokens: readonly string[] | undefined;
  let source: string;
  if (!op) {
    if (status < 400) fail(what, status, "not an operation of the contract", body);
    tokens = ERROR_SCHEMA;
    source = "#/components/schemas/Error (operation not in the contract)";
  } else {
    const responses = op.responses ?? {};
    const rangeKey = `${Math.floor(status / 100)}XX`;
    const listedKey = [String(status), rangeKey, rangeKey.toLowerCase()].find((k) =>
      Object.hasOwn(responses, k),
    );
    const listed = listedKey === undefined ? undefined : responses[listedKey];
    if (listedKey !== undefined && listed) {
      tokens = responseSchemaTokens(pathTemplate, m, listedKey, listed);
      source = `responses.${listedKey}`;
      if (!tokens) {
        // No JSON body documented for this status.
        if (!isEmptyBody(body)) fail(what, status, `responses.${listedKey} documents no JSON body`, body);
        return;
      }
    } else if (status >= 400) {
      const errorKey = Object.keys(responses).find((k) => /^4(\d\d|XX)$/i.test(k));
      const errorResponse = errorKey === undefined ? undefined : responses[errorKey];
      tokens =
        errorKey !== undefined && errorResponse
          ? (responseSchemaTokens(pathTemplate, m, errorKey, errorResponse) ?? ERROR_SCHEMA)
          : ERROR_SCHEMA;
      source =
        tokens === ERROR_SCHEMA
          ? "#/components/schemas/Error (no 4xx response listed)"
          : `error schema of responses.${errorKey} (status not listed)`;
    } else {
      const listedStatuses = Object.keys(responses).join(", ") || "none";
      fail(what, status, `status not listed by the operation (lists ${listedStatuses})`, body);
    }
  }

  const validate = validatorAt(tokens);
  if (!validate(body)) {
    fail(what, status, `body does not match ${source}:\n${describeErrors(validate.errors)}`, body);
  }
}

/** Supertest-style convenience: validates `res.status` / `res.body` and returns `res`. */
export function expectContract<R extends { status: number; body: unknown }>(
  res: R,
  method: string,
  pathTemplate: string,
): R {
  validateResponse(method, pathTemplate, res.status, res.body);
  return res;
}

const templateMatchers: ReadonlyArray<{ template: string; segments: readonly string[]; literals: number }> =
  Object.keys(contract?.paths ?? {})
    .map((template) => {
      const segments = template.split("/");
      return { template, segments, literals: segments.filter((s) => !/^\{[^}]+\}$/.test(s)).length };
    })
    // Prefer the most specific template when several match.
    .sort((a, b) => b.literals - a.literals);

/**
 * The contract path key matching a concrete path (`/v1/locations/loc_abc` -> `/v1/locations/{locationId}`)
 * for which the contract has `method`; each `{param}` matches one non-empty segment. Query strings are ignored.
 */
export function operationFor(method: string, concretePath: string): string | undefined {
  required();
  const path = concretePath.split(/[?#]/, 1)[0] ?? "";
  const segments = path.split("/");
  for (const { template, segments: pattern } of templateMatchers) {
    if (pattern.length !== segments.length) continue;
    const matches = pattern.every((p, i) => {
      const s = segments[i] ?? "";
      return /^\{[^}]+\}$/.test(p) ? s.length > 0 : p === s;
    });
    if (matches && findOperation(method, template)) return template;
  }
  return undefined;
}

/** Maps the concrete path to its template, then validates; unknown routes with status >= 400 use Error. */
export function validateAny(method: string, concretePath: string, status: number, body: unknown): void {
  if (skippedWithout(contract)) return;
  const template = operationFor(method, concretePath);
  validateResponse(method, template ?? concretePath, status, body);
}

/** Throws unless `body` is the v1 error object (`#/components/schemas/Error`). */
export function assertErrorBody(body: unknown): void {
  if (skippedWithout(contract)) return;
  const validate = errorBodyValidator();
  if (!validate(body)) {
    throw new Error(
      `body does not match #/components/schemas/Error:\n${describeErrors(validate.errors)}\nbody: ${describeBody(body)}`,
    );
  }
}
