import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { addEndpoint, deliveries, notify, webhookWorld as world } from "../helpers/webhooks.js";

/**
 * A webhook receiver that answers 200 but never ends its answer: the delivery fails with the timeout and keeps
 * the status its head gave. The timeout must outlast the head's way over loopback, however loaded the machine,
 * so it is real and seconds long: here rather than with the other failing receivers of
 * test/webhooks/failures.test.ts, in the fast tier.
 */

let receiver: Server | undefined;
afterEach(async () => {
  const server = receiver;
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function listening(server: Server): Promise<string> {
  receiver = server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

it("answers 200 but never ends its answer: failed with the timeout, its status kept", async () => {
  // The timeout races the answer's head over loopback (milliseconds): ten times that and more.
  const w = world({ timeoutMs: 3000 });
  const url = await listening(
    createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write("{");
      });
    }),
  );
  await addEndpoint(w, url);
  expect((await notify(w)).status).toBe(200);
  await w.registry.dispatcher.settled();
  const [failed] = await deliveries(w);
  expect(failed).toMatchObject({
    status: "failed",
    attempts: 1,
    response_status: 200,
    error: "timed out after 3000 ms",
  });
  // The head came, so the time is known (null only when there was no answer at all).
  expect(typeof failed?.response_time_ms).toBe("number");
});
