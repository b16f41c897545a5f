import { connect } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ManualClock } from "../../src/platform/clock.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * WRITE_TIMEOUT_MS over a real socket: a client that reads slowly, but steadily, is not cut, however long its
 * answers take in all. It must read for longer than the timeout, so it runs for seconds by design, here rather
 * than in the fast tier (test/http/write-timeout.test.ts has the clients that stop reading). The server's timeout
 * is forty times the pause between the reads: a busy machine that holds the test's process back for a while must
 * not look like a reader that stopped.
 */

const PATIENT_TIMEOUT_MS = 2000;
const BITE_EVERY_MS = 50;
/** 16 KB each 50 ms: the ten answers below take a few timeouts to read, each bite well within one. */
const BITE_BYTES = 16 * 1024;
/** The demo project's cards, about 300 KB as JSON: a few dozen of them are more than the kernel's buffers hold. */
const LARGE = "GET /__mock/projects/demo/vouchers HTTP/1.1\r\nHost: x\r\n\r\n";

let patient: RunningServer;

beforeAll(async () => {
  patient = await startServer({
    port: 0,
    documents: defaultDocuments(),
    clock: new ManualClock(),
    connectionLimits: { writeTimeoutMs: PATIENT_TIMEOUT_MS },
  });
});
afterAll(() => patient.close());

it("a client that reads the same answers slowly, but steadily, gets all of them", async () => {
  const reader = connect(patient.port, "127.0.0.1");
  reader.on("error", () => undefined);
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
