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
 * many contract checks were skipped and the command that brings them back. Every other skipped test is accounted
 * for just above it, so that the lines add up to the count vitest gives: the fetch script's own tests on a line
 * of their own (the contract does not bring them back), and any other skip by its file. The plugin adds its
 * reporter to whatever reporters the run has, so the lines are there with `--reporter` given on the command line.
 */

const KINDS = Object.keys(CONTRACT_VARIABLES) as ContractFileKind[];

export interface ContractSkips {
  /** Tests declared with needsContract() that were skipped. */
  tests: number;
  /** Validations not made in the tests that ran (and in their files' hooks). */
  checks: number;
  /** Tests of `npm run contract:fetch` itself (fetchScriptTest()) that were skipped. */
  fetchTests?: number;
  /** Any other skipped test: how many in each file (its path from the root). */
  others?: Record<string, number>;
}

/** Adds up what the workers recorded in the meta of the tests and of the files, and the skipped tests. */
export function countContractSkips(modules: ReadonlyArray<TestModule>): Required<ContractSkips> {
  const skips = { tests: 0, checks: 0, fetchTests: 0, others: {} as Record<string, number> };
  for (const module of modules) {
    skips.checks += module.meta().contractChecksSkipped ?? 0;
    for (const test of module.children.allTests()) {
      const meta = test.meta();
      skips.checks += meta.contractChecksSkipped ?? 0;
      if (test.result().state !== "skipped") continue;
      if (meta.vendorContract) skips.tests += 1;
      else if (meta.contractFetchTest) skips.fetchTests += 1;
      else skips.others[module.relativeModuleId] = (skips.others[module.relativeModuleId] ?? 0) + 1;
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

/**
 * The lines before the contract's: the skipped tests it does not count, so that every test vitest counts as skipped
 * is named. Issue 47: vitest said 38 skipped where the line counted 32 contract tests, and nothing said what the
 * other six were.
 */
export function otherSkipsLines(skips: ContractSkips): string[] {
  const lines: string[] = [];
  const fetchTests = skips.fetchTests ?? 0;
  if (fetchTests > 0)
    lines.push(
      `${count(fetchTests, "test")} of \`${FETCH_COMMAND}\` itself skipped: each needs the vendor's files as published (a folder CONTRACT_SOURCE_DIR names), ../shared/contract/ beside the clone, or .contract/ as it built it, and one is missing.`,
    );
  const others = Object.entries(skips.others ?? {});
  const total = others.reduce((sum, [, n]) => sum + n, 0);
  if (total > 0)
    lines.push(
      `${count(total, "other test")} skipped: ${others.map(([file, n]) => `${file} (${n})`).join(", ")}.`,
    );
  return lines;
}

class ContractSkipsReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const missing = KINDS.filter((kind) => !locateContractFile(kind)).map((kind) => BUILT_FILES[kind]);
    const skips = countContractSkips(modules);
    const line = contractSkipsLine(skips, missing);
    // The contract's line last: .ci/run and the fresh-clone test read it there.
    for (const text of [...otherSkipsLines(skips), ...(line ? [line] : [])])
      (this.vitest?.logger ?? console).log(text);
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
