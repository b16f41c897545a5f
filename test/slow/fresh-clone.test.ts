import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENDOR_FILES } from "../../scripts/contract/sources.js";
import { CONTRACT_VARIABLES, SHARED_CONTRACT_DIR } from "../helpers/contract-files.js";
import { copyProjectTree } from "../helpers/files.js";
import { ROOT } from "../helpers/process.js";

/**
 * Issue 33, "A fresh clone passes its own tests": this tree as a clone has it (the files git tracks or would
 * track, nothing it ignores), in an empty folder with nothing beside it, so no ../shared/contract. This
 * node_modules is linked in rather than installed (.ci/run's fresh-clone step runs the real `npm ci`). A few files
 * that use the contract in each way run there: with no contract, with LOYALTY_MOCK_REQUIRE_CONTRACT=1, and after
 * `npm run contract:fetch` from the vendor's files (CONTRACT_SOURCE_DIR, or ../shared/contract/vendor-source).
 */

const FILES = [
  "test/helpers/contract.test.ts",
  "test/helpers/webhook-contract.test.ts",
  "test/api/not-emulated.test.ts",
  "test/http/form-body.test.ts",
  "test/api/v2-tiers-validation.test.ts",
];
const sourceDir = process.env.CONTRACT_SOURCE_DIR || join(SHARED_CONTRACT_DIR, "vendor-source");
const haveSource = Object.values(VENDOR_FILES).every((file) =>
  existsSync(join(sourceDir, file.commit, file.path)),
);

/** The environment of a newcomer's shell: none of the variables that name the contract, nor the CI switch. */
function newcomerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...extra };
  for (const name of [
    ...Object.values(CONTRACT_VARIABLES),
    "LOYALTY_MOCK_REQUIRE_CONTRACT",
    "CONTRACT_SOURCE_DIR",
  ])
    if (!(name in extra)) delete env[name];
  // The outer run's own markers, which would make the inner vitest think it is a worker of this one.
  for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TEST") delete env[name];
  return env;
}

describe("a clone with nothing beside it", { timeout: 240_000 }, () => {
  let dir: string;
  let clone: string;

  const run = (command: string, args: string[], extra: Record<string, string> = {}) => {
    const result = spawnSync(command, args, {
      cwd: clone,
      env: newcomerEnv(extra),
      encoding: "utf8",
      timeout: 200_000,
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };
  const vitest = (extra: Record<string, string> = {}, files = FILES) =>
    run(process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...files], extra);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-clone-"));
    clone = join(dir, "loyalty-mock");
    // Without node_modules, which is linked in below, as every clone's is.
    copyProjectTree(clone);
    symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"));
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("has no contract: not beside it, not in .contract/", () => {
    expect(existsSync(join(dir, "shared"))).toBe(false);
    expect(existsSync(join(clone, ".contract"))).toBe(false);
  });

  it("passes, and says on its last line how many contract checks it skipped and how to bring them back", () => {
    // With the fetch script's own tests, which need the vendor's files: skipped too, and named (issue 47: vitest
    // said 38 skipped, the line counted 32, and nothing named the other 6).
    const { status, output } = vitest({}, [...FILES, "test/helpers/contract-fetch.test.ts"]);
    expect(status, output).toBe(0);
    const skipped = Number(/Tests\s+\d+ passed \| (\d+) skipped/.exec(output)?.[1]);
    const lines = output.trim().split("\n");
    expect(lines.at(-1)).toMatch(
      /^Vendor contract not found \(six-operations\.openapi\.json, webhooks\.openapi\.json, vendor-operations\.json, loyalties-v2\.json, loyalties-v2-ga\.json\): \d+ contract tests and [\d,]+ contract checks in behaviour tests skipped; `npm run contract:fetch` brings them back\.$/,
    );
    expect(lines.at(-2)).toMatch(/^6 tests of `npm run contract:fetch` itself skipped: each needs /);
    const named = [
      /: (\d+) contract tests? /,
      /^(\d+) tests? of `npm run contract:fetch`/,
      /^(\d+) other tests? skipped/,
    ]
      .map((pattern) => Number(lines.map((line) => pattern.exec(line)?.[1]).find(Boolean) ?? 0))
      .reduce((sum, n) => sum + n, 0);
    expect(named).toBe(skipped);
  });

  it("fails before running anything with LOYALTY_MOCK_REQUIRE_CONTRACT=1", () => {
    const { status, output } = vitest({ LOYALTY_MOCK_REQUIRE_CONTRACT: "1" });
    expect(status).not.toBe(0);
    expect(output).toContain("LOYALTY_MOCK_REQUIRE_CONTRACT=1, and the vendor contract is missing");
    expect(output).toContain("`npm run contract:fetch` builds them");
  });

  it("runs every contract check once `npm run contract:fetch` built the contract", {
    skip: !haveSource,
  }, () => {
    const fetched = run("npm", ["run", "contract:fetch", "--silent"], { CONTRACT_SOURCE_DIR: sourceDir });
    expect(fetched.status, fetched.output).toBe(0);
    expect(fetched.output).toContain("SHA-256 as pinned");
    const { status, output } = vitest({ LOYALTY_MOCK_REQUIRE_CONTRACT: "1" });
    expect(status, output).toBe(0);
    expect(output).toMatch(/Tests\s+\d+ passed \(\d+\)/);
    expect(output).not.toContain("Vendor contract not found");
    expect(JSON.parse(readFileSync(join(clone, ".contract/vendor-operations.json"), "utf8")).count).toBe(244);
  });

  it("keeps .contract/ out of git", () => {
    expect(
      execFileSync("git", ["check-ignore", ".contract/webhooks.openapi.json"], {
        cwd: ROOT,
        encoding: "utf8",
      }),
    ).toBe(".contract/webhooks.openapi.json\n");
  });
});
