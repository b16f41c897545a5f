import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/platform/clock.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { getDemoLocation } from "../helpers/raw-http.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * WRITE_TIMEOUT_MS over real sockets: a client that stops reading is cut once its answer has made no progress for
 * the timeout, so it cannot pin answers in memory; one that waits for an answer held back on purpose is not. The
 * timeout is short for the stalled client, so that it is cut quickly, and the bound the test waits for the cut is
 * many timeouts long, so that only a server without the timeout fails it. One that reads slowly, but steadily,
 * must read for longer than a generous timeout, seconds by design: test/slow/slow-reader.test.ts.
 */

const WRITE_TIMEOUT_MS = 200;
/**
 * How long the test waits for the stalled client to be cut: the server first writes answers until the kernel's
 * buffers are full, which on a machine whose cores are busy elsewhere took more than 4 s (20 timeouts). The wait
 * ends as soon as the cut happens, so a generous bound costs nothing; only a server that never cuts waits it out.
 */
const CUT_WITHIN_MS = 30_000;
const KEYS = "X-App-Id: demo-app-id\r\nX-App-Token: demo-app-token\r\n";
/** The demo project's cards, about 300 KB as JSON: a few dozen of them are more than the kernel's buffers hold. */
const LARGE = "GET /__mock/projects/demo/vouchers HTTP/1.1\r\nHost: x\r\n\r\n";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    documents: defaultDocuments(),
    clock: new ManualClock(),
    connectionLimits: { writeTimeoutMs: WRITE_TIMEOUT_MS },
  });
});
afterAll(() => server.close());

function open(): Socket {
  const socket = connect(server.port, "127.0.0.1");
  socket.on("error", () => undefined);
  return socket;
}

function connections(): Promise<number> {
  return new Promise((resolve) => server.server.getConnections((_error, count) => resolve(count)));
}

/** Whether the server has dropped every connection within `withinMs` (a paused client cannot see its close). */
async function allCut(withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if ((await connections()) === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

/** Reads whatever the client was sent, up to the server's close. */
function drain(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
    });
    socket.once("close", () => resolve(text));
    socket.resume();
  });
}

async function servesLocation(): Promise<void> {
  expect((await getDemoLocation(server.port)).status).toBe(200);
}

describe("WRITE_TIMEOUT_MS: clients that stop reading", () => {
  it(
    "a client that asks for large answers and never reads them is cut; others are served meanwhile",
    async () => {
      const stalled = open();
      stalled.pause();
      const asked = 60;
      stalled.write(LARGE.repeat(asked));
      await servesLocation();
      expect(await allCut(CUT_WITHIN_MS)).toBe(true);
      await servesLocation();
      // What reached the client before the cut: a part of the answers, the last one cut off.
      const received = await drain(stalled);
      expect(received.startsWith("HTTP/1.1 200 OK")).toBe(true);
      expect(received.split("HTTP/1.1 200 OK").length - 1).toBeLessThan(asked);
    },
    2 * CUT_WITHIN_MS,
  );

  it("an answer held back on purpose (a fault's latency) longer than the timeout is not cut", async () => {
    const fault = await fetch(`${server.url}/__mock/projects/demo/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        method: "GET",
        path: "/v1/locations/loc_demo_polygon",
        action: "delay",
        latency_ms: WRITE_TIMEOUT_MS * 2,
        times: 1,
      }),
    });
    expect(fault.status).toBe(201);
    const socket = open();
    const text = await new Promise<string>((resolve) => {
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk;
        if (received.includes("loc_demo_polygon")) resolve(received);
      });
      socket.once("close", () => resolve(received));
      socket.write(`GET /v1/locations/loc_demo_polygon HTTP/1.1\r\nHost: x\r\n${KEYS}\r\n`);
    });
    expect(text.startsWith("HTTP/1.1 200")).toBe(true);
    socket.destroy();
  });
});
