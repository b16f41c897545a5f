import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * `npm run test:container`: the Docker image black-box, and the recipes of docs/guide/docker.md as written (the
 * `docker run` lines, docs/examples/compose.yaml, the CI service container's `docker run` equivalent,
 * Testcontainers with the official SDK). It needs a Docker daemon. The image is LOYALTY_MOCK_IMAGE, which .ci/run
 * builds first; without it, test/container/global-setup.ts builds loyalty-mock:test from the sources each run. Every
 * container, volume and network made carries the run's label and is removed at the end, failed tests included.
 */
export default defineConfig({
  // A test file as an application writes it imports the Testcontainers module by its name: the built one.
  resolve: {
    alias: [
      {
        find: /^loyalty-mock\/testcontainers$/,
        replacement: fileURLToPath(new URL("./dist/clients/testcontainers.js", import.meta.url)),
      },
    ],
  },
  test: {
    include: ["test/container/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/container/global-setup.ts"],
    // Each test starts containers: seconds, not milliseconds; a stuck one fails instead of holding CI.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // One file at a time on a 2-core machine: the image-size and stop-time checks must not race other containers.
    maxWorkers: 1,
    isolate: true,
    // Testcontainers' reaper (Ryuk) is an image of its own, pulled from Docker Hub, which these machines cannot
    // reach: off, and each test file removes what it started (test/container/docker.ts removeAll). The image under
    // test is named for the files that read it as an application would (docker.ts IMAGE).
    env: {
      TESTCONTAINERS_RYUK_DISABLED: "true",
      LOYALTY_MOCK_IMAGE: process.env.LOYALTY_MOCK_IMAGE ?? "loyalty-mock:test",
    },
  },
});
