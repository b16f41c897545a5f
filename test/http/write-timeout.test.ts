import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/platform/clock.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { getDemoLocation } from "../helpers/raw-http.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * WRITE_TIMEOUT_MS over real sockets: a client that stops reading is cut once its answer has made no progress for
 * the timeout, so it cannot pin answers in memory; one that reads slowly, or waits for an answer held back on
 * purpose, is not. The timeout is short for the stalled client, so that it is cut quickly, and the bound the test
 * waits for the cut is many timeouts long, so that only a server without the timeout fails it. The slow reader
 * has a server of its own with a timeout forty times the pause between its reads: a busy machine that holds the
 * test's process back for a while must not look like a reader that stopped.
 */

const WRITE_TIMEOUT_MS = 200;
/**
 * How long the test waits for the stalled client to be cut: the server first writes answers until the kernel's
 * buffers are full, which on a machine whose cores are busy elsewhere took more than 4 s (20 timeouts). The wait
 * ends as soon as the cut happens, so a generous bound costs nothing; only a server that never cuts waits it out.
 */
const CUT_WITHIN_MS = 30_000;
const PATIENT_TIMEOUT_MS = 2000;
const BITE_EVERY_MS = 50;
/** 16 KB each 50 ms: the ten answers below take a few timeouts to read, each bite well within one. */
const BITE_BYTES = 16 * 1024;
const KEYS = "X-App-Id: demo-app-id\r\nX-App-Token: demo-app-token\r\n";
/** The demo project's cards, about 300 KB as JSON: a few dozen of them are more than the kernel's buffers hold. */
const LARGE = "GET /__mock/projects/demo/vouchers HTTP/1.1\r\nHost: x\r\n\r\n";

let server: RunningServer;
let patient: RunningServer;

const serverCutting = (writeTimeoutMs: number) =>
  startServer({
    port: 0,
    documents: defaultDocuments(),
    clock: new ManualClock(),
    connectionLimits: { writeTimeoutMs },
  });

beforeAll(async () => {
  server = await serverCutting(WRITE_TIMEOUT_MS);
  patient = await serverCutting(PATIENT_TIMEOUT_MS);
});
afterAll(async () => {
  await server.close();
  await patient.close();
});

function open(to = server): Socket {
  const socket = connect(to.port, "127.0.0.1");
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

  it("a client that reads the same answers slowly, but steadily, gets all of them", async () => {
    const reader = open(patient);
    reader.pause();
    const answers = 10;
    reader.write(LARGE.repeat(answers));
    let text = "";
    const began = Date.now();
    // A small bite at a time, a fraction of the timeout apart: the answer keeps moving, slowly.
    const bite = setInterval(() => {
      // No more than a bite, even when more is buffered (asking for more than is buffered also asks the socket).
      const chunk = reader.read(Math.min(BITE_BYTES, reader.readableLength || BITE_BYTES));
      if (chunk) text += chunk.toString("latin1");
    }, BITE_EVERY_MS);
    const done = await new Promise<boolean>((resolve) => {
      const check = setInterval(() => {
        const count = text.split("HTTP/1.1 200 OK").length - 1;
        if (count === answers && text.endsWith("}")) finish(true);
      }, 20);
      const finish = (result: boolean) => {
        clearInterval(check);
        clearInterval(bite);
        resolve(result);
      };
      reader.once("close", () => finish(false));
    });
    expect(done).toBe(true);
    // Longer than the timeout in all: the timeout counts from the last progress, not from the first byte.
    expect(Date.now() - began).toBeGreaterThan(PATIENT_TIMEOUT_MS);
    expect(reader.destroyed).toBe(false);
    reader.destroy();
  });

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
