import { readFileSync } from "node:fs";
import { locateContractFile, missingContractMessage } from "./contract-files.js";

/**
 * The vendor's list of every public operation (method, path template, operationId), a vendor file the project
 * never commits: read at test time from VENDOR_OPERATIONS_FILE, ../shared/contract/ beside the repository, or the
 * .contract/ folder `npm run contract:fetch` fills (test/helpers/contract-files.ts). A test that reads it is
 * declared with needsContract("vendorOperations"), so it is skipped and counted when the file is found nowhere.
 */
export interface VendorOperation {
  method: string;
  path: string;
  operationId: string;
}

export function loadVendorOperations(env: NodeJS.ProcessEnv = process.env): VendorOperation[] {
  const path = locateContractFile("vendorOperations", env)?.path;
  if (!path) throw new Error(`vendor operations: ${missingContractMessage("vendorOperations")}`);
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

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/**
 * Every operation the Loyalty v2 beta documents (method, path template, operationId), in the order of its file,
 * derived at test time from the vendor's beta description (LOYALTY_V2_FILE, ../shared/contract/vendor-source/, or
 * .contract/ after `npm run contract:fetch`); declared with needsContract("loyaltyV2").
 */
export function loadLoyaltyV2Operations(env: NodeJS.ProcessEnv = process.env): VendorOperation[] {
  return operationsOf("loyaltyV2", "Loyalty v2 beta", env);
}

/**
 * The same of the generally available Loyalty v2 (the vendor's loyalties-v2.json at 65c33a7a: LOYALTY_V2_GA_FILE,
 * ../shared/contract/vendor-source/, or .contract/); declared with needsContract("loyaltyV2Ga").
 */
export function loadLoyaltyV2GaOperations(env: NodeJS.ProcessEnv = process.env): VendorOperation[] {
  return operationsOf("loyaltyV2Ga", "Loyalty v2 (GA)", env);
}

function operationsOf(
  kind: "loyaltyV2" | "loyaltyV2Ga",
  what: string,
  env: NodeJS.ProcessEnv,
): VendorOperation[] {
  const path = locateContractFile(kind, env)?.path;
  if (!path) throw new Error(`${what}: ${missingContractMessage(kind)}`);
  const document = JSON.parse(readFileSync(path, "utf8")) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: template,
        operationId: operation.operationId ?? "",
      })),
  );
}
