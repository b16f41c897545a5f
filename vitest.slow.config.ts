import { configDefaults, defineConfig } from "vitest/config";
import fast from "./vitest.config.js";

/**
 * `npm run test:slow`: what `npm test` leaves out for time. The real process (CLI, end to end, SIGKILL during
 * writes, graceful shutdown), the soak, and the generated-input files again with FUZZ_RUNS cases (2000 unless set),
 * the views' figures against their recomputation among them.
 * Each file gets its own module graph, as the soak measures the heap and the process tests build dist/.
 */
export default defineConfig({
  ...fast,
  test: {
    ...fast.test,
    include: [
      "test/slow/**/*.test.ts",
      "test/fuzz/{operations,control,metadata,documents}.test.ts",
      "test/control/views-figures.test.ts",
    ],
    exclude: [...configDefaults.exclude],
    isolate: true,
    execArgv: [],
    // One file at a time: several of these measure latency, throughput or memory against a baseline of the same
    // run, which a second file running beside them would disturb.
    maxWorkers: 1,
    env: { FUZZ_RUNS: process.env.FUZZ_RUNS ?? "2000" },
  },
});
