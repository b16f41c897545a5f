import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { contractSkipsLine, otherSkipsLines } from "../contract-skips.js";
import {
  BUILT_FILES,
  CONTRACT_CACHE_DIR,
  contractRequired,
  locateContractFile,
  missingContractMessage,
  SHARED_CONTRACT_DIR,
  sharedContractPath,
} from "./contract-files.js";
import { skippedWithout } from "./contract-skips.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A shared folder and a cache folder, each holding the named built files. */
function places(shared: (keyof typeof BUILT_FILES)[], cache: (keyof typeof BUILT_FILES)[]) {
  const root = mkdtempSync(join(tmpdir(), "loyalty-mock-contract-"));
  temps.push(root);
  const dirs = { shared: join(root, "shared", "contract"), cache: join(root, "repo", ".contract") };
  const write = (path: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "{}");
  };
  for (const kind of shared) write(sharedContractPath(kind, dirs.shared));
  for (const kind of cache) write(join(dirs.cache, BUILT_FILES[kind]));
  mkdirSync(dirs.shared, { recursive: true });
  mkdirSync(dirs.cache, { recursive: true });
  return dirs;
}

describe("where the tests find the vendor contract", () => {
  it("the variable that names a file first, relative to the repository root, found or not", () => {
    const dirs = places(["sixOperations"], ["sixOperations"]);
    expect(locateContractFile("sixOperations", { CONTRACT_FILE: "/elsewhere/c.json" }, dirs)).toEqual({
      path: "/elsewhere/c.json",
      from: "variable",
    });
    expect(locateContractFile("webhooks", { WEBHOOKS_CONTRACT_FILE: "vendor/w.json" }, dirs)).toEqual({
      path: join(repoRoot, "vendor/w.json"),
      from: "variable",
    });
    expect(locateContractFile("vendorOperations", { VENDOR_OPERATIONS_FILE: "v.json" }, dirs)?.from).toBe(
      "variable",
    );
  });

  it("then ../shared/contract/ beside the repository, then the .contract/ folder contract:fetch fills", () => {
    const both = places(["sixOperations", "webhooks"], ["sixOperations", "vendorOperations"]);
    expect(locateContractFile("sixOperations", {}, both)).toEqual({
      path: join(both.shared, "six-operations.openapi.json"),
      from: "shared",
    });
    expect(locateContractFile("webhooks", {}, both)?.from).toBe("shared");
    expect(locateContractFile("vendorOperations", {}, both)).toEqual({
      path: join(both.cache, "vendor-operations.json"),
      from: "cache",
    });
  });

  it("the Loyalty v2 beta's file: among the vendor's files in ../shared/contract, as contract:fetch wrote it in .contract/", () => {
    const shared = places(["loyaltyV2"], []);
    expect(locateContractFile("loyaltyV2", {}, shared)).toEqual({
      path: join(
        shared.shared,
        "vendor-source/9502f5cee63efdd2fd3745bbc893c40ef4d55fb3/documentation/openapi/loyalties-v2.json",
      ),
      from: "shared",
    });
    const cached = places([], ["loyaltyV2"]);
    expect(locateContractFile("loyaltyV2", {}, cached)).toEqual({
      path: join(cached.cache, "loyalties-v2.json"),
      from: "cache",
    });
    expect(locateContractFile("loyaltyV2", { LOYALTY_V2_FILE: "/x/beta.json" }, cached)?.path).toBe(
      "/x/beta.json",
    );
  });

  it("nowhere is undefined, not an error", () => {
    const none = places([], []);
    for (const kind of ["sixOperations", "webhooks", "vendorOperations", "loyaltyV2"] as const)
      expect(locateContractFile(kind, {}, none)).toBeUndefined();
  });

  it("the places by default: ../shared/contract and .contract/ of this repository", () => {
    expect(SHARED_CONTRACT_DIR).toBe(join(repoRoot, "../shared/contract"));
    expect(CONTRACT_CACHE_DIR).toBe(join(repoRoot, ".contract"));
  });

  it("is required only with LOYALTY_MOCK_REQUIRE_CONTRACT=1", () => {
    expect(contractRequired({ LOYALTY_MOCK_REQUIRE_CONTRACT: "1" })).toBe(true);
    expect(contractRequired({})).toBe(false);
    expect(contractRequired({ LOYALTY_MOCK_REQUIRE_CONTRACT: "0" })).toBe(false);
  });

  it("a missing file's message names the variable, both places and the command", () => {
    const message = missingContractMessage("webhooks");
    expect(message).toContain("webhooks.openapi.json found nowhere");
    expect(message).toContain("WEBHOOKS_CONTRACT_FILE unset");
    expect(message).toContain(SHARED_CONTRACT_DIR);
    expect(message).toContain(CONTRACT_CACHE_DIR);
    expect(message).toContain("`npm run contract:fetch` builds it");
  });
});

describe("a contract check skipped without the contract", () => {
  it("is counted in the running test's meta, and a check made is not", ({ task }) => {
    expect(skippedWithout({ paths: {} })).toBe(false);
    expect(task.meta.contractChecksSkipped).toBeUndefined();
    expect(skippedWithout(undefined)).toBe(true);
    expect(skippedWithout(undefined)).toBe(true);
    expect(task.meta.contractChecksSkipped).toBe(2);
    // Not a real skip: the end of the run must not count these two.
    delete task.meta.contractChecksSkipped;
  });

  it("is said on one line with the command that brings it back, and nothing is said when none was", () => {
    const missing = ["six-operations.openapi.json", "webhooks.openapi.json"];
    expect(contractSkipsLine({ tests: 30, checks: 6540 }, missing)).toBe(
      "Vendor contract not found (six-operations.openapi.json, webhooks.openapi.json): 30 contract tests and " +
        "6,540 contract checks in behaviour tests skipped; `npm run contract:fetch` brings them back.",
    );
    expect(contractSkipsLine({ tests: 1, checks: 0 }, [])).toBe(
      "Vendor contract not found: 1 contract test skipped; `npm run contract:fetch` brings them back.",
    );
    expect(contractSkipsLine({ tests: 0, checks: 1 }, [])).toContain(
      ": 1 contract check in behaviour tests skipped;",
    );
    expect(contractSkipsLine({ tests: 0, checks: 0 }, missing)).toBeUndefined();
  });

  it("the skipped tests it does not count are each named above it, so the lines add up to vitest's count", () => {
    expect(otherSkipsLines({ tests: 32, checks: 6540, fetchTests: 6, others: {} })).toEqual([
      "6 tests of `npm run contract:fetch` itself skipped: each needs the vendor's files as published (a folder " +
        "CONTRACT_SOURCE_DIR names), ../shared/contract/ beside the clone, or .contract/ as it built it, and one is missing.",
    ]);
    expect(
      otherSkipsLines({
        tests: 0,
        checks: 0,
        others: { "test/slow/a.test.ts": 1, "test/slow/b.test.ts": 2 },
      }),
    ).toEqual(["3 other tests skipped: test/slow/a.test.ts (1), test/slow/b.test.ts (2)."]);
    expect(otherSkipsLines({ tests: 32, checks: 6540 })).toEqual([]);
  });
});
