import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The vendor's list of every public operation (method, path template, operationId), a vendor file the project
 * never commits: read at test time from ../shared/contract beside the repository, or VENDOR_OPERATIONS_FILE.
 */
export interface VendorOperation {
  method: string;
  path: string;
  operationId: string;
}

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const DEFAULT_VENDOR_OPERATIONS_FILE = "../shared/contract/vendor-operations.json";

export function loadVendorOperations(env: NodeJS.ProcessEnv = process.env): VendorOperation[] {
  const path = resolve(REPO_ROOT, env.VENDOR_OPERATIONS_FILE || DEFAULT_VENDOR_OPERATIONS_FILE);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(
      `vendor operations: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error}); ` +
        "set VENDOR_OPERATIONS_FILE to its path.",
    );
  }
  const document = JSON.parse(text) as { count: number; operations: VendorOperation[] };
  if (document.operations.length !== document.count)
    throw new Error(`vendor operations: ${path} lists ${document.operations.length}, says ${document.count}`);
  return document.operations;
}
