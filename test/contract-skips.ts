import type { Reporter, TestModule, Vite, Vitest } from "vitest/node";
import { BUILT_FILES } from "../scripts/contract-fetch.js";
import {
  CONTRACT_VARIABLES,
  type ContractFileKind,
  contractRequired,
  FETCH_COMMAND,
  locateContractFile,
  missingContractMessage,
} from "./helpers/contract-files.js";
import type {} from "./helpers/contract-skips.js";

/**
 * The main-process half of test/helpers/contract-skips.ts, as a plugin of the vitest configs: before the run, with
 * LOYALTY_MOCK_REQUIRE_CONTRACT=1 (CI), a contract file found nowhere fails the run; after it, one line says how
 * many contract checks were skipped and the command that brings them back. The plugin adds its reporter to
 * whatever reporters the run has, so the line is there with `--reporter` given on the command line too.
 */

const KINDS = Object.keys(CONTRACT_VARIABLES) as ContractFileKind[];

export interface ContractSkips {
  /** Tests declared with needsContract() that were skipped. */
  tests: number;
  /** Validations not made in the tests that ran (and in their files' hooks). */
  checks: number;
}

/** Adds up what the workers recorded in the meta of the tests and of the files. */
export function countContractSkips(modules: ReadonlyArray<TestModule>): ContractSkips {
  const skips: ContractSkips = { tests: 0, checks: 0 };
  for (const module of modules) {
    skips.checks += module.meta().contractChecksSkipped ?? 0;
    for (const test of module.children.allTests()) {
      const meta = test.meta();
      if (meta.vendorContract && test.result().state === "skipped") skips.tests += 1;
      skips.checks += meta.contractChecksSkipped ?? 0;
    }
  }
  return skips;
}

const count = (n: number, what: string) => `${n.toLocaleString("en")} ${what}${n === 1 ? "" : "s"}`;

/** The one line, or undefined when nothing was skipped. */
export function contractSkipsLine(skips: ContractSkips, missing: readonly string[]): string | undefined {
  if (skips.tests === 0 && skips.checks === 0) return undefined;
  const what = [
    ...(skips.tests > 0 ? [count(skips.tests, "contract test")] : []),
    ...(skips.checks > 0 ? [`${count(skips.checks, "contract check")} in behaviour tests`] : []),
  ].join(" and ");
  const files = missing.length > 0 ? ` (${missing.join(", ")})` : "";
  return `Vendor contract not found${files}: ${what} skipped; \`${FETCH_COMMAND}\` brings them back.`;
}

class ContractSkipsReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const missing = KINDS.filter((kind) => !locateContractFile(kind)).map((kind) => BUILT_FILES[kind]);
    const line = contractSkipsLine(countContractSkips(modules), missing);
    if (line) (this.vitest?.logger ?? console).log(line);
  }
}

export function contractSkips(): Vite.Plugin {
  return {
    name: "loyalty-mock:contract-skips",
    configureVitest({ vitest }) {
      if (contractRequired()) {
        const missing = KINDS.filter((kind) => !locateContractFile(kind));
        if (missing.length > 0)
          throw new Error(
            `LOYALTY_MOCK_REQUIRE_CONTRACT=1, and the vendor contract is missing: ${missingContractMessage(...missing)}.`,
          );
      }
      vitest.config.reporters.push(new ContractSkipsReporter());
    },
  };
}
