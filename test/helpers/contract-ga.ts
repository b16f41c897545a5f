// The generally available Loyalty v2's contract (the vendor's loyalties-v2.json at 65c33a7a, read at test time
// from LOYALTY_V2_GA_FILE, ../shared/contract/vendor-source/, or the .contract/ folder `npm run contract:fetch`
// fills), built here with the recipe contract:fetch checks (scripts/contract/assemble-ga.ts): the GA form's answers
// are validated against it, as the beta's are against the six operations' contract. Found nowhere, every
// validation here is skipped and counted, unless LOYALTY_MOCK_REQUIRE_CONTRACT=1.
import { readFileSync } from "node:fs";
import { assembleLoyaltyV2Ga } from "../../scripts/contract/assemble-ga.js";
import { ContractChecks, type ContractDocument } from "./contract-checks.js";
import { contractRequired, locateContractFile, missingContractMessage } from "./contract-files.js";
import { skippedWithout } from "./contract-skips.js";

function findGaFile(): Record<string, never> | undefined {
  const found = locateContractFile("loyaltyV2Ga");
  if (found) return JSON.parse(readFileSync(found.path, "utf8"));
  if (contractRequired())
    throw new Error(`contract: ${missingContractMessage("loyaltyV2Ga")} (LOYALTY_MOCK_REQUIRE_CONTRACT=1)`);
  return undefined;
}

const gaFile = findGaFile();

/** The GA form's contract as the recipe builds it; undefined when the vendor's GA file is found nowhere. */
export const gaContract = gaFile
  ? (assembleLoyaltyV2Ga(gaFile) as unknown as ContractDocument & { info: { "x-conversions": string[] } })
  : undefined;

const checks = new ContractChecks(
  "contract-ga",
  gaContract,
  "ErrorResponse",
  missingContractMessage("loyaltyV2Ga"),
);

const TIERS = /^\/v2\/loyalties\/tier-structures\/[^/]+\/tiers\/?$/;
const BENEFITS = /^\/v2\/loyalties\/benefits(\/|$)/;

function parsed(body: unknown): unknown {
  if (typeof body !== "string" && !Buffer.isBuffer(body)) return body;
  try {
    return JSON.parse(body.toString());
  } catch {
    return undefined;
  }
}

/**
 * Whether a request is the generally available version's, as docs/fidelity.md says (written out here rather than
 * imported, so the server's rule is held to the documented one): a benefit's path, or a tier body whose
 * qualification_rules hold `points` or the type POINTS_AND_SEGMENT, and neither of the beta's flat range fields.
 */
export function isGaRequest(method: string, concretePath: string, requestBody?: unknown): boolean {
  const path = concretePath.split(/[?#]/, 1)[0] ?? "";
  if (BENEFITS.test(path)) return true;
  if (method.toUpperCase() !== "POST" || !TIERS.test(path)) return false;
  const rules = (parsed(requestBody) as { qualification_rules?: unknown } | null | undefined)
    ?.qualification_rules;
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) return false;
  if ("min_value" in rules || "max_value" in rules) return false;
  return "points" in rules || (rules as { type?: unknown }).type === "POINTS_AND_SEGMENT";
}

/** The GA contract's template for a concrete path, where it has `method` there. */
export function gaOperationFor(method: string, concretePath: string): string | undefined {
  return checks.operationFor(method, concretePath);
}

/** Validates an answer of the GA form against the GA contract (its ErrorResponse for any error it does not list). */
export function validateGa(method: string, concretePath: string, status: number, body: unknown): void {
  if (skippedWithout(gaContract)) return;
  const template = checks.operationFor(method, concretePath);
  checks.validate(method, template ?? concretePath.split(/[?#]/, 1)[0] ?? concretePath, status, body);
}

/** The same, with the operation's template given. */
export function validateGaResponse(method: string, template: string, status: number, body: unknown): void {
  if (skippedWithout(gaContract)) return;
  checks.validate(method, template, status, body);
}
