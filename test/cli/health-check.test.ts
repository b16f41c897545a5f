import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findServer, probeOf, runHealthCheck } from "../../src/cli/health-check.js";
import { startServer } from "../../src/index.js";

// The image's health check (issue 38) follows the server's own flags; the container tier runs it in the image.

const IMAGE_ENV = { LOYALTY_MOCK_HOST: "0.0.0.0", LOYALTY_MOCK_PORT: "3000" };
const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-health-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the health check's address and token, as the server worked them out", () => {
  it("the image's environment alone: 127.0.0.1:3000, no token", () => {
    expect(probeOf({ args: [], env: IMAGE_ENV, cwd: "/app" })).toEqual({ url: "http://127.0.0.1:3000" });
  });

  it("flags win over the environment: --port, -p, --admin-token, --host", () => {
    expect(probeOf({ args: ["--port", "4000", "--admin-token", "X"], env: IMAGE_ENV, cwd: "/app" })).toEqual({
      url: "http://127.0.0.1:4000",
      adminToken: "X",
    });
    expect(
      probeOf({ args: ["-p", "4001"], env: { ...IMAGE_ENV, LOYALTY_MOCK_ADMIN_TOKEN: "E" }, cwd: "/" }),
    ).toEqual({
      url: "http://127.0.0.1:4001",
      adminToken: "E",
    });
    expect(probeOf({ args: ["--host", "::1"], env: IMAGE_ENV, cwd: "/" })).toEqual({
      url: "http://[::1]:3000",
    });
    expect(probeOf({ args: ["--host", "10.1.2.3"], env: IMAGE_ENV, cwd: "/" })).toEqual({
      url: "http://10.1.2.3:3000",
    });
  });

  it("a settings file, read from the server's own working folder, under the environment", () => {
    writeFileSync(join(dir, "ci.env"), "LOYALTY_MOCK_PORT=4500\nLOYALTY_MOCK_ADMIN_TOKEN=from-file\n");
    const server = { args: ["--settings-file", "ci.env"], env: { LOYALTY_MOCK_HOST: "0.0.0.0" }, cwd: dir };
    expect(probeOf(server)).toEqual({ url: "http://127.0.0.1:4500", adminToken: "from-file" });
  });

  it("what it cannot follow, in words", () => {
    expect(probeOf({ args: ["--port", "0"], env: IMAGE_ENV, cwd: "/" })).toEqual({
      problem:
        "the server listens on a port it chose at start (--port 0), which a health check cannot know; give the container a port (--port 3000)",
    });
    expect(probeOf({ args: ["--port", "many"], env: IMAGE_ENV, cwd: "/" })).toMatchObject({
      problem: expect.stringMatching(/^the server's settings do not read: .*--port/),
    });
  });
});

describe("the check against a server", () => {
  it("exit 0 with the server's token and port; 1 when either is not the server's", async () => {
    const server = await startServer({ host: "127.0.0.1", port: 0, adminToken: "s3cret" });
    try {
      const env = { LOYALTY_MOCK_HOST: "127.0.0.1" };
      const args = (token: string, port = server.port) => ["--port", String(port), "--admin-token", token];
      expect(await runHealthCheck(() => ({ args: args("s3cret"), env, cwd: "/" }))).toBe(0);
      expect(await runHealthCheck(() => ({ args: args("wrong"), env, cwd: "/" }))).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("no server process found: 1, saying so", async () => {
    expect(await runHealthCheck(() => undefined)).toBe(1);
    // Outside a container /proc holds this machine's processes; whatever it finds is a server's command line.
    const found = findServer();
    if (found !== undefined) expect(found.args[0] === undefined || found.args[0].startsWith("-")).toBe(true);
  });
});
