import { configDefaults, defineConfig } from "vitest/config";
import fast from "./vitest.config.js";

/**
 * `npm run test:browser`: the dashboard in a real browser (playwright-core driving Debian's chromium at
 * /usr/bin/chromium, or CHROMIUM_PATH), against a real server on 127.0.0.1. One file at a time: the million-card
 * file measures the first paint, which a browser running beside it would disturb.
 */
export default defineConfig({
  ...fast,
  test: {
    ...fast.test,
    include: ["test/browser/**/*.test.ts"],
    exclude: [...configDefaults.exclude],
    isolate: true,
    execArgv: [],
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
