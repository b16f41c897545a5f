// Validates HTTP responses against the public contract, read at test time (it is the vendor's document, MIT, so the
// repository keeps no copy of it): from CONTRACT_FILE, ../shared/contract/ beside the repository, or the .contract/
// folder `npm run contract:fetch` fills (test/helpers/contract-files.ts). Found nowhere, every validation here is
// skipped and counted (test/helpers/contract-skips.ts), unless LOYALTY_MOCK_REQUIRE_CONTRACT=1.
import { readFileSync } from "node:fs";
import type { ValidateFunction } from "ajv";
import { ContractChecks, type ContractDocument } from "./contract-checks.js";
import { contractRequired, locateContractFile, missingContractMessage } from "./contract-files.js";
import { isGaRequest, validateGa } from "./contract-ga.js";
import { skippedWithout } from "./contract-skips.js";

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

const sixOperations = new ContractChecks(
  "contract",
  contract,
  "Error",
  missingContractMessage("sixOperations"),
);

/** Compiled validator for `#/components/schemas/Error` (the v1 error body); returns a boolean, sets `.errors`. */
export function errorBodyValidator(): ValidateFunction {
  return sixOperations.errorValidator();
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
  sixOperations.validate(method, pathTemplate, status, body);
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

/**
 * The contract path key matching a concrete path (`/v1/locations/loc_abc` -> `/v1/locations/{locationId}`)
 * for which the contract has `method`; each `{param}` matches one non-empty segment. Query strings are ignored.
 */
export function operationFor(method: string, concretePath: string): string | undefined {
  return sixOperations.operationFor(method, concretePath);
}

/**
 * Maps the concrete path to its template, then validates; unknown routes with status >= 400 use Error. An answer
 * of the generally available Loyalty v2 (the request's path or body says so: ga-form.ts) is validated against the
 * GA file's contract instead, each version's answers against its own schemas. `requestBody` is what was sent, as
 * sent (an object, or JSON text).
 */
export function validateAny(
  method: string,
  concretePath: string,
  status: number,
  body: unknown,
  requestBody?: unknown,
): void {
  if (isGaRequest(method, concretePath, requestBody)) {
    validateGa(method, concretePath, status, body);
    return;
  }
  if (skippedWithout(contract)) return;
  const template = operationFor(method, concretePath);
  validateResponse(method, template ?? concretePath, status, body);
}

/** Throws unless `body` is the v1 error object (`#/components/schemas/Error`). */
export function assertErrorBody(body: unknown): void {
  if (skippedWithout(contract)) return;
  sixOperations.assertError(body);
}
