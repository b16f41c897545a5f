import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { probeOf, runHealthCheck } from "../../src/cli/health-check.js";
import { claimHealthFile, readHealthFile, releaseHealthFile } from "../../src/cli/health-file.js";
import { startServer } from "../../src/index.js";

// The image's health check (issues 38 and 44) follows the file its server writes, never other processes'
// command lines; test/slow/health-check.test.ts runs both as processes, the container tier in the image.

const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-health-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

let files = 0;
const newFile = () => join(dir, `health-${++files}.json`);
/** No process has this id: Linux's pid_max is at most 2^22. */
const GONE = 2 ** 22 + 1;

describe("the health file", () => {
  it("holds the server's pid, URL and admin token, readable by its user only", () => {
    const file = newFile();
    const record = { pid: process.pid, url: "http://127.0.0.1:4000", admin_token: "s3cret" };
    expect(claimHealthFile(file, record)).toEqual({ written: true });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(record);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readHealthFile(file)).toEqual(record);
  });

  it("belongs to the first server that runs: a second one leaves it, a stale one's is taken over", () => {
    const file = newFile();
    // The parent of this test process runs, and is not the server claiming.
    claimHealthFile(file, { pid: process.ppid, url: "http://127.0.0.1:3000" });
    expect(claimHealthFile(file, { pid: process.pid, url: "http://127.0.0.1:4000" })).toEqual({
      written: false,
      ownerPid: process.ppid,
    });
    expect(readHealthFile(file)).toMatchObject({ url: "http://127.0.0.1:3000" });
    // A server killed before it could remove its file (kill -9).
    writeFileSync(file, JSON.stringify({ pid: GONE, url: "http://127.0.0.1:3000" }));
    expect(claimHealthFile(file, { pid: process.pid, url: "http://127.0.0.1:4000" })).toEqual({
      written: true,
    });
    // A restarted container's server has the pid its file names (1): its own, taken over as well.
    expect(claimHealthFile(file, { pid: process.pid, url: "http://127.0.0.1:5000" })).toEqual({
      written: true,
    });
    expect(readHealthFile(file)).toMatchObject({ url: "http://127.0.0.1:5000" });
  });

  it("is removed by its server on stop, and only by it", () => {
    const file = newFile();
    claimHealthFile(file, { pid: process.pid, url: "http://127.0.0.1:4000" });
    releaseHealthFile(file, process.ppid);
    expect(readHealthFile(file)).toBeDefined();
    releaseHealthFile(file);
    expect(readHealthFile(file)).toBeUndefined();
  });

  it("a folder that does not exist: the claim says why", () => {
    const claim = claimHealthFile(join(dir, "missing", "health.json"), { pid: process.pid, url: "http://a" });
    expect(claim).toMatchObject({ written: false, error: expect.objectContaining({ code: "ENOENT" }) });
  });
});

describe("what the check follows, or why it cannot", () => {
  const env = (file: string) => ({ LOYALTY_MOCK_HEALTH_FILE: file });

  it("the server's own URL and token, from its file", () => {
    const file = newFile();
    claimHealthFile(file, { pid: process.pid, url: "http://[::1]:4000", admin_token: "X" });
    expect(probeOf(env(file))).toEqual({ url: "http://[::1]:4000", adminToken: "X" });
  });

  it("in words: no variable, no file yet, a file of no server, a server that stopped", () => {
    expect(probeOf({})).toEqual({
      problem:
        "LOYALTY_MOCK_HEALTH_FILE is not set: the server writes where it listens to that file (the image sets it)",
    });
    const file = newFile();
    expect(probeOf(env(file))).toEqual({
      problem: `no server has written ${file}: it is starting, could not write it (its log says why), or has stopped`,
    });
    writeFileSync(file, '{"url":"http://evil"}');
    expect(probeOf(env(file))).toEqual({
      problem: `${file} is not a health file a loyalty-mock server wrote`,
    });
    claimHealthFile(file, { pid: GONE, url: "http://127.0.0.1:3000" });
    expect(probeOf(env(file))).toEqual({
      problem: `the server that wrote ${file} (pid ${GONE}) is not running`,
    });
  });
});

describe("the check against a server", () => {
  it("exit 0 with the address and token its file names; 1 when the token is not the server's", async () => {
    const server = await startServer({ host: "127.0.0.1", port: 0, adminToken: "s3cret" });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const file = newFile();
      claimHealthFile(file, { pid: process.pid, url: server.url, admin_token: "s3cret" });
      // Whatever the check's own environment says of ports and tokens, the file decides.
      const env = {
        LOYALTY_MOCK_HEALTH_FILE: file,
        LOYALTY_MOCK_PORT: "1",
        LOYALTY_MOCK_ADMIN_TOKEN: "wrong",
      };
      expect(await runHealthCheck(env)).toBe(0);
      claimHealthFile(file, { pid: process.pid, url: server.url, admin_token: "wrong" });
      // A refusal waits out the check's time (3 s in the image), which says nothing more than a short one.
      expect(await runHealthCheck(env, { timeoutSeconds: 0.3 })).toBe(1);
    } finally {
      stderr.mockRestore();
      await server.close();
    }
  });

  it("no file: 1, saying so", async () => {
    const said: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((text) => said.push(String(text)) > 0);
    expect(await runHealthCheck({ LOYALTY_MOCK_HEALTH_FILE: newFile() })).toBe(1);
    expect(said.join("")).toMatch(/^loyalty-mock health: no server has written /);
  });
});
