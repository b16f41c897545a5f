import { defineConfig } from "vitest/config";
import fast from "./vitest.config.js";

/**
 * `npm run test:mutation` (stryker.config.json): the fast tier's config over the test files that exercise what
 * Stryker mutates (src/domain/, the verify comparator, the persistence replay). The generated-input files are left
 * out: two hundred cases per operation for every mutant would make a run of hours, and each rule they reach has a
 * named test in these folders. Stryker runs vitest in its own process, one worker, one test file at a time.
 */
export default defineConfig({
  ...fast,
  test: {
    ...fast.test,
    include: [
      "test/domain/**/*.test.ts",
      "test/api/**/*.test.ts",
      "test/control/**/*.test.ts",
      "test/webhooks/**/*.test.ts",
      "test/persistence/**/*.test.ts",
      "test/emulation/**/*.test.ts",
      "test/cli/verify-compare*.test.ts",
    ],
  },
});
