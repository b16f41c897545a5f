import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runWait } from "../../src/cli/wait.js";
import { type RunningServer, startServer } from "../../src/index.js";

// `loyalty-mock wait` against a real server in this process; the CI recipe runs it as a command (test/slow).

describe("loyalty-mock wait", () => {
  let mock: RunningServer;
  let dir: string;
  const written: string[] = [];
  const spies: { mockRestore(): void }[] = [];
  beforeAll(async () => {
    mock = await startServer({ port: 0, adminToken: "ci-secret" });
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-wait-"));
    for (const stream of [process.stdout, process.stderr])
      spies.push(vi.spyOn(stream, "write").mockImplementation((chunk) => written.push(String(chunk)) > 0));
  });
  afterAll(async () => {
    for (const spy of spies) spy.mockRestore();
    rmSync(dir, { recursive: true, force: true });
    await mock.close();
  });

  it("--url: 0 once the health answer is 200, sending the admin token", async () => {
    const env = { LOYALTY_MOCK_ADMIN_TOKEN: "ci-secret" };
    expect(await runWait({ command: "wait", url: mock.url, timeoutSeconds: 5 }, env)).toBe(0);
  });

  it("--url: 1 when the time runs out, saying the last answer (here 401: no token) and what to pass", async () => {
    written.length = 0;
    expect(await runWait({ command: "wait", url: mock.url, timeoutSeconds: 0.3 }, {})).toBe(1);
    expect(written.join("")).toBe(
      `loyalty-mock wait: ${mock.url}/__mock/health: no 200 within 0.3 s (last: status 401: the server asks for its admin token; pass --admin-token <token> (or set LOYALTY_MOCK_ADMIN_TOKEN))\n`,
    );
  });

  it("--admin-token: sent instead of LOYALTY_MOCK_ADMIN_TOKEN; a wrong one is said to be refused", async () => {
    const command = { command: "wait" as const, url: mock.url, timeoutSeconds: 5, adminToken: "ci-secret" };
    expect(await runWait(command, { LOYALTY_MOCK_ADMIN_TOKEN: "not-this" })).toBe(0);
    written.length = 0;
    expect(await runWait({ ...command, adminToken: "wrong", timeoutSeconds: 0.3 }, {})).toBe(1);
    expect(written.join("")).toMatch(
      /\(last: status 401: the server refused the admin token sent; pass the one it was started with\)\n$/,
    );
  });

  it("--url: a port nothing listens on is 'connection refused', not a TypeError", async () => {
    const closed = await startServer({ port: 0 });
    await closed.close();
    written.length = 0;
    expect(await runWait({ command: "wait", url: closed.url, timeoutSeconds: 0.3 }, {})).toBe(1);
    expect(written.join("")).toBe(
      `loyalty-mock wait: ${closed.url}/__mock/health: no 200 within 0.3 s (last: connection refused)\n`,
    );
  });

  it("--log: the address the server printed, printed again once it is healthy", async () => {
    const log = join(dir, "ok.err");
    writeFileSync(
      log,
      `loyalty-mock: warning: LOYALTY_MOCK_PROT is not a setting; ignored\nloyalty-mock listening on ${mock.url}\n`,
    );
    written.length = 0;
    const env = { LOYALTY_MOCK_ADMIN_TOKEN: "ci-secret" };
    expect(await runWait({ command: "wait", log, timeoutSeconds: 5 }, env)).toBe(0);
    expect(written).toEqual([`${mock.url}\n`]);
  });

  it("--log: 1 at once, with the server's line, when its start was refused", async () => {
    const log = join(dir, "refused.err");
    writeFileSync(log, 'loyalty-mock: Invalid value for LOYALTY_MOCK_PORT: "x"; expected a whole number\n');
    written.length = 0;
    const started = Date.now();
    expect(await runWait({ command: "wait", log, timeoutSeconds: 30 }, {})).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(written.join("")).toMatch(
      /^loyalty-mock wait: the server did not start: loyalty-mock: Invalid value/,
    );
  });
});
