import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { contractSkips } from "./test/contract-skips.js";

/**
 * `npm test`: the whole behaviour suite, fast. What is slow by nature (processes spawned, the soak, thousands of
 * generated cases) is in test/slow/ and vitest.slow.config.ts (`npm run test:slow`).
 */
export default defineConfig({
  // Without the vendor contract its checks are skipped and counted on one line at the end (test/contract-skips.ts).
  plugins: [contractSkips()],
  // The README's example test (and the control client's) imports the package by its name; here that is the source.
  resolve: {
    alias: [
      { find: /^loyalty-mock$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
      {
        find: /^loyalty-mock\/control-client$/,
        replacement: fileURLToPath(new URL("./src/clients/control-client.ts", import.meta.url)),
      },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [
      ...configDefaults.exclude,
      "test/slow/**",
      "test/browser/**",
      "test/container/**",
      // The operations' generated input and the metadata round trips run in the slow tier only, at FUZZ_RUNS=2000
      // (here they were the fast tier's two costliest files); the control API's and the documents' stay in both.
      "test/fuzz/operations.test.ts",
      "test/fuzz/metadata.test.ts",
    ],
    environment: "node",
    // The second puts each test's CPU time in its meta, which CI's budget check adds up (scripts/fast-tier-budget.ts).
    setupFiles: ["test/contract-skips-setup.ts", "test/cpu-time-setup.ts"],
    // A guard against a hang, not a bound on the work: under `stress --cpu 2` beside other work on this 2-core
    // machine the property tests took up to 18 s (json-body, id-queue) and two heavier tests past 20 s, so 60 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Files share a worker's modules instead of importing express, zod and ajv again each: no module of src or
    // test keeps state a file could see from another (every test builds its own world), and the files that
    // change process-wide things (the environment, fake timers, process listeners) put them back.
    isolate: false,
    // A worker is a process (vitest's default pool, named here as test/cpu-time-setup.ts counts a process's CPU as
    // its file's); worker threads measured no cheaper.
    pool: "forks",
    // A larger young generation: the suite allocates fast and keeps little, and with V8's default of 16 MB per
    // semi-space a worker spent about a tenth of its CPU collecting; 64 MB took 4.5% off the tests' CPU (issue 47).
    // The slow and browser tiers, which measure memory, keep V8's default.
    execArgv: ["--max-semi-space-size=64"],
    // One worker per core: vitest's default left one of this 2-core machine's cores idle (54 s wall; 38 s with both).
    maxWorkers: availableParallelism(),
  },
});
