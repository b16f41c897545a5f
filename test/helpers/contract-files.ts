import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { VENDOR_FILES } from "../../scripts/contract/sources.js";
import { BUILT_FILES, CONTRACT_CACHE_DIR } from "../../scripts/contract-fetch.js";

export { BUILT_FILES, CONTRACT_CACHE_DIR };

/**
 * Where the tests find the vendor's contract files (never committed: they are the vendor's), in this order:
 * the variable that names the file (relative to the repository root), `../shared/contract/` beside the repository,
 * then `.contract/`, which `npm run contract:fetch` fills. A file found nowhere is no error: the checks that need it
 * are skipped and counted (test/contract-skips.ts says how many at the end of the run), unless
 * LOYALTY_MOCK_REQUIRE_CONTRACT=1, as in CI. A variable that names a missing file is an error: it was asked for.
 */
export type ContractFileKind = keyof typeof BUILT_FILES;

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SHARED_CONTRACT_DIR = resolve(REPO_ROOT, "../shared/contract");

export const CONTRACT_VARIABLES: Record<ContractFileKind, string> = {
  sixOperations: "CONTRACT_FILE",
  webhooks: "WEBHOOKS_CONTRACT_FILE",
  vendorOperations: "VENDOR_OPERATIONS_FILE",
  loyaltyV2: "LOYALTY_V2_FILE",
  loyaltyV2Ga: "LOYALTY_V2_GA_FILE",
};

/** The kinds that are a vendor's file unchanged, found among the vendor's files in ../shared/contract/vendor-source. */
const VENDOR_SOURCE: Partial<Record<ContractFileKind, keyof typeof VENDOR_FILES>> = {
  loyaltyV2: "loyaltiesV2",
  loyaltyV2Ga: "loyaltiesV2Ga",
};

/**
 * Where each file is in `../shared/contract/`: the built files at its top; the two Loyalty v2 files (the beta's and
 * the generally available version's), which are the vendor's own, among the vendor's files they were pinned from
 * (`vendor-source/<commit>/<path>`).
 */
export function sharedContractPath(kind: ContractFileKind, shared: string = SHARED_CONTRACT_DIR): string {
  const vendorFile = VENDOR_SOURCE[kind];
  if (vendorFile === undefined) return join(shared, BUILT_FILES[kind]);
  const { commit, path } = VENDOR_FILES[vendorFile];
  return join(shared, "vendor-source", commit, path);
}

/** The command that brings the skipped checks back. */
export const FETCH_COMMAND = "npm run contract:fetch";

export interface ContractFileLocation {
  path: string;
  /** Which place of the lookup order it came from. */
  from: "variable" | "shared" | "cache";
}

export function locateContractFile(
  kind: ContractFileKind,
  env: NodeJS.ProcessEnv = process.env,
  dirs: { shared: string; cache: string } = { shared: SHARED_CONTRACT_DIR, cache: CONTRACT_CACHE_DIR },
): ContractFileLocation | undefined {
  const named = env[CONTRACT_VARIABLES[kind]];
  if (named) return { path: resolve(REPO_ROOT, named), from: "variable" };
  const shared = sharedContractPath(kind, dirs.shared);
  if (existsSync(shared)) return { path: shared, from: "shared" };
  const cached = join(dirs.cache, BUILT_FILES[kind]);
  if (existsSync(cached)) return { path: cached, from: "cache" };
  return undefined;
}

/** LOYALTY_MOCK_REQUIRE_CONTRACT=1 (CI): a contract file found nowhere fails the run instead of skipping. */
export function contractRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.LOYALTY_MOCK_REQUIRE_CONTRACT === "1";
}

/** Why files are missing, and how to bring them; for errors. */
export function missingContractMessage(...kinds: ContractFileKind[]): string {
  const files = kinds.map((kind) => BUILT_FILES[kind]).join(", ");
  const variables = kinds.map((kind) => CONTRACT_VARIABLES[kind]).join(", ");
  return (
    `${files} found nowhere (${variables} unset, not in ${SHARED_CONTRACT_DIR}, not in ${CONTRACT_CACHE_DIR}); ` +
    `\`${FETCH_COMMAND}\` builds ${kinds.length === 1 ? "it" : "them"} from the vendor's public files`
  );
}
