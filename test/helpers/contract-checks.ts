import type { ErrorObject, ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

/**
 * Validation of answers against an OpenAPI document of the vendor's (the six operations' contract, the generally
 * available Loyalty v2's): by operation and status, with ajv (JSON Schema 2020-12, as OpenAPI 3.1 writes it).
 */

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
export interface ContractDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, unknown>;
    responses?: Record<string, ResponseObject>;
  };
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

// Both packages are CommonJS: under NodeNext the default import is `module.exports`, whose `.default` (set by
// the packages themselves) is the class / plugin, at runtime under Node and Vite alike.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

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

const escapeToken = (token: string): string =>
  encodeURIComponent(token.replace(/~/g, "~0").replace(/\//g, "~1"));

function isEmptyBody(body: unknown): boolean {
  return (
    body === undefined ||
    body === null ||
    body === "" ||
    (typeof body === "object" && !Array.isArray(body) && Object.keys(body).length === 0)
  );
}

/**
 * The checks of one contract document (the six operations', or the generally available Loyalty v2's): its
 * responses by operation and status, its templates by concrete path. `document` is undefined when the file was
 * found nowhere: every use then throws, and the callers skip and count first (skippedWithout).
 */
export class ContractChecks {
  readonly #id: string;
  readonly #document: ContractDocument | undefined;
  readonly #missing: string;
  /** The error schema an unlisted error status, or an error of a route the document lacks, is held to. */
  readonly #errorSchema: readonly string[];
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #templates: ReadonlyArray<{ template: string; segments: readonly string[] }>;

  constructor(id: string, document: ContractDocument | undefined, errorSchema: string, missing: string) {
    this.#id = id;
    this.#document = document;
    this.#missing = missing;
    this.#errorSchema = ["components", "schemas", errorSchema];
    // The OpenAPI document is not a JSON Schema; register a wrapper that only carries the parts refs point into,
    // so "#/components/schemas/..." refs resolve against it and "#/paths/..." pointers can be compiled directly.
    if (document) ajv.addSchema({ $id: id, components: document.components, paths: document.paths });
    this.#templates = Object.keys(document?.paths ?? {})
      .map((template) => {
        const segments = template.split("/");
        return { template, segments, literals: segments.filter((s) => !/^\{[^}]+\}$/.test(s)).length };
      })
      // Prefer the most specific template when several match.
      .sort((a, b) => b.literals - a.literals);
  }

  /** The document, for what cannot be skipped: a test that needs it is declared with needsContract(...). */
  required(): ContractDocument {
    if (!this.#document) throw new Error(`contract: ${this.#missing}`);
    return this.#document;
  }

  validatorAt(tokens: readonly string[]): ValidateFunction {
    const ref = `${this.#id}#/${tokens.map(escapeToken).join("/")}`;
    let validate = this.#validators.get(ref);
    if (!validate) {
      validate = ajv.getSchema(ref);
      if (!validate) throw new Error(`contract: no schema at ${ref}`);
      this.#validators.set(ref, validate);
    }
    return validate;
  }

  errorValidator(): ValidateFunction {
    this.required();
    return this.validatorAt(this.#errorSchema);
  }

  findOperation(method: string, pathTemplate: string): OperationObject | undefined {
    const m = method.toLowerCase();
    const { paths } = this.required();
    if (!HTTP_METHODS.has(m) || !Object.hasOwn(paths, pathTemplate)) return undefined;
    const item = paths[pathTemplate];
    const op = item && Object.hasOwn(item, m) ? item[m] : undefined;
    return op && typeof op === "object" ? (op as OperationObject) : undefined;
  }

  /** Pointer tokens of the application/json schema of one listed response (following a components $ref). */
  responseSchemaTokens(
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
      resolved = this.required().components.responses?.[name];
      if (!resolved) throw new Error(`contract: dangling response $ref ${ref}`);
      tokens = ["components", "responses", name];
    }
    if (resolved?.content?.["application/json"]?.schema === undefined) return undefined;
    return [...tokens, "content", "application/json", "schema"];
  }

  /** See validateResponse below: the same rules, against this document. */
  validate(method: string, pathTemplate: string, status: number, body: unknown): void {
    const m = method.toLowerCase();
    const what = `${method.toUpperCase()} ${pathTemplate}`;
    const op = this.findOperation(m, pathTemplate);
    const errorSchema = this.#errorSchema;
    const errorName = `#/${errorSchema.join("/")}`;

    let tokens: readonly string[] | undefined;
    let source: string;
    if (!op) {
      if (status < 400) fail(what, status, "not an operation of the contract", body);
      tokens = errorSchema;
      source = `${errorName} (operation not in the contract)`;
    } else {
      const responses = op.responses ?? {};
      const rangeKey = `${Math.floor(status / 100)}XX`;
      const listedKey = [String(status), rangeKey, rangeKey.toLowerCase()].find((k) =>
        Object.hasOwn(responses, k),
      );
      const listed = listedKey === undefined ? undefined : responses[listedKey];
      if (listedKey !== undefined && listed) {
        tokens = this.responseSchemaTokens(pathTemplate, m, listedKey, listed);
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
            ? (this.responseSchemaTokens(pathTemplate, m, errorKey, errorResponse) ?? errorSchema)
            : errorSchema;
        source =
          tokens === errorSchema
            ? `${errorName} (no 4xx response listed)`
            : `error schema of responses.${errorKey} (status not listed)`;
      } else {
        const listedStatuses = Object.keys(responses).join(", ") || "none";
        fail(what, status, `status not listed by the operation (lists ${listedStatuses})`, body);
      }
    }

    const validate = this.validatorAt(tokens);
    if (!validate(body)) {
      fail(what, status, `body does not match ${source}:\n${describeErrors(validate.errors)}`, body);
    }
  }

  /**
   * The path key matching a concrete path (`/v1/locations/loc_abc` -> `/v1/locations/{locationId}`) for which the
   * document has `method`; each `{param}` matches one non-empty segment. Query strings are ignored.
   */
  operationFor(method: string, concretePath: string): string | undefined {
    this.required();
    const path = concretePath.split(/[?#]/, 1)[0] ?? "";
    const segments = path.split("/");
    for (const { template, segments: pattern } of this.#templates) {
      if (pattern.length !== segments.length) continue;
      const matches = pattern.every((p, i) => {
        const s = segments[i] ?? "";
        return /^\{[^}]+\}$/.test(p) ? s.length > 0 : p === s;
      });
      if (matches && this.findOperation(method, template)) return template;
    }
    return undefined;
  }

  /** Throws unless `body` is this document's error object. */
  assertError(body: unknown): void {
    const validate = this.errorValidator();
    if (!validate(body)) {
      throw new Error(
        `body does not match #/${this.#errorSchema.join("/")}:\n${describeErrors(validate.errors)}\nbody: ${describeBody(body)}`,
      );
    }
  }
}
