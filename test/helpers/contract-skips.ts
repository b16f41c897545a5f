import { type TaskMeta, type TestOptions, TestRunner } from "vitest";
import { type ContractFileKind, locateContractFile } from "./contract-files.js";

/**
 * Without the vendor's contract files (test/helpers/contract-files.ts), the checks against them are skipped, never
 * silently: each is recorded in the meta of the test it belongs to, which vitest hands to the main process with the
 * test's result, whatever worker ran it. test/contract-skips.ts adds them up at the end of the run into one line.
 *
 * - A test that only checks the contract is declared with `needsContract(...)`: skipped without it, and counted.
 * - A behaviour test that also validates its answers against the contract still runs; each validation it could not
 *   make is counted, in the test's meta, or in its file's when a hook made it (test/contract-skips-setup.ts tells
 *   which file is running).
 */
declare module "vitest" {
  interface TaskMeta {
    /** Set on tests (and suites) that check the vendor contract and nothing else. */
    vendorContract?: boolean;
    /** How many contract validations this test could not make, the contract being absent. */
    contractChecksSkipped?: number;
    /** Set on the tests of `npm run contract:fetch` itself, which need the vendor's files rather than the contract. */
    contractFetchTest?: boolean;
  }
}

let runningFile: { meta: TaskMeta } | undefined;

/** The test file whose hooks run now (set and cleared by test/contract-skips-setup.ts). */
export function setRunningFile(file: { meta: TaskMeta } | undefined): void {
  runningFile = file;
}

/** Records one validation not made; called by the contract helpers when their file is absent. */
function skipContractCheck(): void {
  const task = TestRunner.getCurrentTest() ?? runningFile;
  if (!task)
    throw new Error(
      "a contract check at a test module's top level cannot be counted when skipped: make it in a test or a hook",
    );
  task.meta.contractChecksSkipped = (task.meta.contractChecksSkipped ?? 0) + 1;
}

/** True, and one validation counted as skipped, when `document` (a contract file's content) is absent. */
export function skippedWithout(document: unknown): boolean {
  if (document !== undefined) return false;
  skipContractCheck();
  return true;
}

/**
 * Options for a `describe` or `it` that checks the vendor contract and nothing else: it runs when every file it
 * names is found, and is skipped (and counted as a skipped contract check) otherwise.
 */
export function needsContract(...kinds: ContractFileKind[]): TestOptions {
  return {
    skip: kinds.some((kind) => locateContractFile(kind) === undefined),
    meta: { vendorContract: true },
  };
}

/**
 * Options for a test of `npm run contract:fetch` itself: it runs when `runs` (the vendor's files as published, or
 * the copies it compares with, are there), and is skipped otherwise, counted on a line of its own, as the contract
 * being found does not bring it back.
 */
export function fetchScriptTest(runs: boolean): TestOptions {
  return { skip: !runs, meta: { contractFetchTest: true } };
}
