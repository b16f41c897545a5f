import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { assembleSixOperations, listVendorOperations, type VendorDocuments } from "./contract/assemble.js";
import { assembleLoyaltyV2Ga } from "./contract/assemble-ga.js";
import { VENDOR_FILES, VENDOR_RAW_BASE, type VendorFile, type VendorFileName } from "./contract/sources.js";

/**
 * `npm run contract:fetch`: downloads the vendor's public OpenAPI files at the pinned commits
 * (scripts/contract/sources.ts), checks each against its pinned SHA-256, and builds the three files the tests read
 * into the git-ignored `.contract/` folder: six-operations.openapi.json, webhooks.openapi.json (the vendor's file,
 * unchanged), vendor-operations.json, loyalties-v2.json (the Loyalty v2 beta's file, unchanged) and
 * loyalties-v2-ga.json (the generally available version's, unchanged; the tests build its two operations' contract
 * from it with scripts/contract/assemble-ga.ts, which is run here too, so a file the recipe no longer fits fails
 * now rather than in the tests). CONTRACT_SOURCE_DIR names a folder laid out `<commit>/<path>` to read the
 * files from instead (a copy made elsewhere, or the tests' own); CONTRACT_SOURCE_URL a mirror of
 * `<commit>/<path>` to download from.
 */

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Where the built files go; test/helpers/contract-files.ts looks there after the variables and ../shared. */
export const CONTRACT_CACHE_DIR = join(REPO_ROOT, ".contract");
export const BUILT_FILES = {
  sixOperations: "six-operations.openapi.json",
  webhooks: "webhooks.openapi.json",
  vendorOperations: "vendor-operations.json",
  /** The Loyalty v2 beta's description, unchanged: the tests derive its list of operations from it. */
  loyaltyV2: "loyalties-v2.json",
  /**
   * The generally available Loyalty v2's description, unchanged: the tests derive its list of operations from it
   * and build the GA form's contract from it (scripts/contract/assemble-ga.ts).
   */
  loyaltyV2Ga: "loyalties-v2-ga.json",
} as const;

const DOWNLOAD_TIMEOUT_MS = 120_000;

export interface FetchOptions {
  /** A folder laid out `<commit>/<path>`; when set, nothing is downloaded. */
  sourceDir?: string | undefined;
  /** The base URL files are downloaded from as `<base>/<commit>/<path>`. */
  baseUrl?: string | undefined;
  /** Where the built files are written. */
  outDir?: string;
  log?: (line: string) => void;
}

const describe = (file: VendorFile) => `${file.path} at ${file.commit.slice(0, 8)}`;

async function obtain(file: VendorFile, options: FetchOptions): Promise<Buffer> {
  if (options.sourceDir) {
    const path = join(options.sourceDir, file.commit, file.path);
    try {
      return readFileSync(path);
    } catch (error) {
      throw new Error(
        `contract:fetch: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`,
      );
    }
  }
  const url = `${(options.baseUrl ?? VENDOR_RAW_BASE).replace(/\/+$/, "")}/${file.commit}/${file.path}`;
  let response: Response;
  try {
    response = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new Error(
      `contract:fetch: cannot download ${url} (${cause}). Without network, set CONTRACT_SOURCE_DIR to a folder ` +
        "holding the files as <commit>/<path>.",
    );
  }
  if (!response.ok)
    throw new Error(`contract:fetch: ${url} answered ${response.status} ${response.statusText}`);
  return Buffer.from(await response.arrayBuffer());
}

/** Fails naming the file when its bytes are not the pinned ones. */
export function checkDigest(file: VendorFile, bytes: Buffer): void {
  const actual = createHash("sha256").update(bytes).digest("hex");
  if (actual !== file.sha256)
    throw new Error(
      `contract:fetch: ${describe(file)} has SHA-256 ${actual}, not the pinned ${file.sha256}: ` +
        "it is not the file the contract is built from, so nothing was written.",
    );
}

function writeAtomically(path: string, text: string | Buffer): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** Obtains and checks every pinned file, then builds and writes the contract files; returns their paths. */
export async function fetchContract(
  options: FetchOptions = {},
): Promise<Record<keyof typeof BUILT_FILES, string>> {
  const log = options.log ?? (() => {});
  const outDir = resolve(options.outDir ?? CONTRACT_CACHE_DIR);
  const raw = {} as Record<VendorFileName, Buffer>;
  const documents = {} as VendorDocuments;
  for (const [name, file] of Object.entries(VENDOR_FILES) as [VendorFileName, VendorFile][]) {
    const bytes = await obtain(file, options);
    checkDigest(file, bytes);
    raw[name] = bytes;
    documents[name] = JSON.parse(bytes.toString("utf8"));
    log(`${describe(file)}: ${bytes.length} bytes, SHA-256 as pinned`);
  }
  const built = {
    sixOperations: `${JSON.stringify(assembleSixOperations(documents), null, 2)}\n`,
    webhooks: raw.webhooks,
    vendorOperations: `${JSON.stringify(listVendorOperations(documents.sdkReference), null, 2)}\n`,
    loyaltyV2: raw.loyaltiesV2,
    loyaltyV2Ga: raw.loyaltiesV2Ga,
  };
  // The recipe must apply to the file as pinned: a failure names what no longer fits, before anything is written.
  assembleLoyaltyV2Ga(documents.loyaltiesV2Ga);
  mkdirSync(outDir, { recursive: true });
  const written = {} as Record<keyof typeof BUILT_FILES, string>;
  for (const key of Object.keys(BUILT_FILES) as (keyof typeof BUILT_FILES)[]) {
    written[key] = join(outDir, BUILT_FILES[key]);
    writeAtomically(written[key], built[key]);
    log(`wrote ${written[key]}`);
  }
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sourceDir = process.env.CONTRACT_SOURCE_DIR ? resolve(process.env.CONTRACT_SOURCE_DIR) : undefined;
  console.log(
    sourceDir
      ? `contract:fetch: reading the vendor's files from ${sourceDir}`
      : `contract:fetch: downloading the vendor's files from ${process.env.CONTRACT_SOURCE_URL || VENDOR_RAW_BASE}`,
  );
  fetchContract({
    sourceDir,
    baseUrl: process.env.CONTRACT_SOURCE_URL || undefined,
    log: (line) => console.log(line),
  })
    .then(() => console.log("contract:fetch: done; `npm test` now runs the contract checks"))
    .catch((error: Error) => {
      console.error(error.message);
      process.exitCode = 1;
    });
}
