import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBenchFixtures } from "../../bench/fixtures.js";
import { residentMiB } from "../../bench/targets.js";
import { build, killGroup, type Started, startBuilt } from "../helpers/process.js";

/**
 * Issue 18's clients that never read, on the real process: forty of them ask for a large state export and read
 * nothing. Each is cut once its answer has made no progress for WRITE_TIMEOUT_MS (each cut is logged), so what
 * their answers held is let go; a normal client is served meanwhile. Resident memory is printed, not asserted
 * (when the allocator returns freed pages is not ours to promise).
 */

const CLIENTS = 40;
const WRITE_TIMEOUT_MS = 1000;
const CUT = "connection cut: its client read nothing of the answer for the write timeout";

let dir: string;
let server: Started;
let port: number;

beforeAll(async () => {
  build();
  dir = writeBenchFixtures(mkdtempSync(join(tmpdir(), "non-reading-")), {
    cards: 20_000,
    smallCards: 10,
    tierStructures: 1,
    incentives: 1,
  });
  ({ server, port } = await startBuilt(
    {
      LOYALTY_MOCK_LOG_LEVEL: "warn",
      LOYALTY_MOCK_FIXTURES_DIR: dir,
      LOYALTY_MOCK_WRITE_TIMEOUT_MS: String(WRITE_TIMEOUT_MS),
    },
    60_000,
  ));
}, 120_000);
afterAll(() => {
  killGroup(server, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const cuts = () =>
  server
    .stdout()
    .split("\n")
    .filter((line) => line.includes(CUT)).length;

async function until(condition: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

/**
 * What a client got before the server closed: the body bytes received, and whether the answer was complete (the
 * export is streamed in chunks, so a whole answer ends with the last, empty chunk).
 */
function rest(socket: Socket): Promise<{ received: number; complete: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("close", () => {
      const all = Buffer.concat(chunks);
      const headEnd = all.indexOf("\r\n\r\n");
      resolve({ received: all.length - headEnd - 4, complete: all.subarray(-5).toString() === "0\r\n\r\n" });
    });
    socket.resume();
  });
}

describe("clients that never read a large state export", () => {
  it("are each cut after WRITE_TIMEOUT_MS without progress, short of their answer; others are served", async () => {
    // The whole answer, read by a client that reads: what the others are cut short of.
    const full = (await (await fetch(`http://127.0.0.1:${port}/__mock/projects/bench/state`)).arrayBuffer())
      .byteLength;
    expect(full).toBeGreaterThan(1_000_000);
    const before = (await residentMiB(server.child.pid as number)) ?? 0;
    const sockets = Array.from({ length: CLIENTS }, () => {
      const socket = connect(port, "127.0.0.1");
      socket.on("error", () => undefined);
      socket.pause();
      socket.write("GET /__mock/projects/bench/state HTTP/1.1\r\nHost: x\r\n\r\n");
      return socket;
    });
    let peak = before;
    const sampler = setInterval(async () => {
      peak = Math.max(peak, (await residentMiB(server.child.pid as number)) ?? 0);
    }, 100);
    const health = await fetch(`http://127.0.0.1:${port}/__mock/health`);
    expect(health.status).toBe(200);
    const allCut = await until(() => cuts() >= CLIENTS, 90_000);
    clearInterval(sampler);
    expect(allCut, `${cuts()} of ${CLIENTS} cut`).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = (await residentMiB(server.child.pid as number)) ?? 0;
    const got = await Promise.all(sockets.map(rest));
    process.stdout.write(
      `non-reading clients: ${CLIENTS} cut after ${WRITE_TIMEOUT_MS} ms without progress; answers of ` +
        `${(full / 1e6).toFixed(1)} MB; RSS ${before.toFixed(0)} MiB before, ${peak.toFixed(0)} ` +
        `at the peak, ${after.toFixed(0)} 2 s after the last cut\n`,
    );
    for (const { received, complete } of got) {
      expect(complete).toBe(false);
      expect(received).toBeLessThan(full);
    }
    expect((await fetch(`http://127.0.0.1:${port}/__mock/health`)).status).toBe(200);
  }, 180_000);
});
