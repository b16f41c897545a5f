import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * `npm test`: the whole behaviour suite, fast. What is slow by nature (processes spawned, the soak, thousands of
 * generated cases) is in test/slow/ and vitest.slow.config.ts (`npm run test:slow`).
 */
export default defineConfig({
  // The README's example test imports the package by its name; here that is the source.
  resolve: {
    alias: [
      { find: /^loyalty-mock$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "test/slow/**"],
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
