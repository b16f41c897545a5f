import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closedPort } from "../helpers/receiver.js";
import {
  addEndpoint,
  deliveries,
  notify,
  resend,
  useReceivers,
  webhookWorld as world,
} from "../helpers/webhooks.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * Receivers that fail: a 500, one that hangs past the timeout, a closed port, a full queue, and a host the server
 * may not send to. Each ends as a failed delivery with its reason; nothing blocks the operation, and a resend
 * delivers once the receiver is back. One that answers 200 but never ends its answer waits out a real timeout of
 * seconds: test/slow/webhook-timeout.test.ts.
 */

const receiver = useReceivers();

/** Receivers the helper cannot be: a raw status line, an answer that never ends. Closed after each test. */
const raw: (Server | TcpServer)[] = [];
afterEach(async () => {
  for (const server of raw.splice(0)) {
    if ("closeAllConnections" in server) server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listening<S extends Server | TcpServer>(server: S): Promise<string> {
  raw.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

/** A receiver that reads the whole request, then writes `answer` as the bytes of its response. */
function rawReceiver(answer: string): TcpServer {
  return createTcpServer((socket) => {
    let got = "";
    socket.on("data", (chunk) => {
      got += chunk.toString("latin1");
      const head = got.indexOf("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(got)?.[1]);
      if (head >= 0 && got.length >= head + 4 + length) socket.end(answer);
    });
    socket.on("error", () => undefined);
  });
}

describe("a receiver that fails", () => {
  it("answers 500: failed with its status; a resend once it answers 200 delivers", async () => {
    const w = world();
    const hook = await receiver(() => 500);
    await addEndpoint(w, hook.url);
    expect((await notify(w)).status).toBe(200);
    await w.registry.dispatcher.settled();
    const [failed] = await deliveries(w);
    expect(failed).toMatchObject({
      status: "failed",
      attempts: 1,
      response_status: 500,
      error: "the receiver answered 500; a 2xx is expected",
    });
    hook.answer = () => 200;
    const again = await resend(w, String(failed?.id));
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: failed?.id, status: "pending", attempts: 1 });
    await w.registry.dispatcher.settled();
    const [delivered] = await deliveries(w);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 2, response_status: 200, error: null });
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]?.text).toBe(hook.received[0]?.text);
  });

  it("answers 300 or 099: failed with its status, as only a 2xx is delivered", async () => {
    const w = world();
    const redirect = await receiver(() => 300);
    await addEndpoint(w, redirect.url);
    await addEndpoint(w, await listening(rawReceiver("HTTP/1.1 099 Odd\r\nContent-Length: 2\r\n\r\n{}")));
    expect((await notify(w)).status).toBe(200);
    await w.registry.dispatcher.settled();
    expect((await deliveries(w)).map((d) => [d.status, d.response_status, d.error])).toEqual([
      ["failed", 300, "the receiver answered 300; a 2xx is expected"],
      ["failed", 99, "the receiver answered 99; a 2xx is expected"],
    ]);
  });

  it("hangs past the timeout: the operation has answered, the delivery fails with the timeout", async () => {
    const w = world({ timeoutMs: 2000 });
    const hook = await receiver(() => "hang");
    await addEndpoint(w, hook.url);
    // The timeout counted on fake timers: it cannot race the operation's answer and the read of the deliveries
    // below however loaded the machine, and the test does not wait the two seconds out.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldClearNativeTimers: true });
    try {
      expect((await notify(w)).status).toBe(200);
      // The answer went out before any delivery was attempted.
      expect((await deliveries(w))[0]?.status).toBe("pending");
      await vi.waitUntil(() => hook.received.length === 1, { timeout: 30_000, interval: 5 });
      await vi.advanceTimersByTimeAsync(2000);
      await w.registry.dispatcher.settled();
    } finally {
      vi.useRealTimers();
    }
    expect((await deliveries(w))[0]).toMatchObject({
      status: "failed",
      response_status: null,
      response_time_ms: null,
      error: "timed out after 2000 ms",
    });
  });

  it("refuses connections: failed with the error; a resend once it listens is delivered once", async () => {
    const w = world();
    const { host, port } = await closedPort();
    await addEndpoint(w, `http://${host}:${port}/hooks`);
    await notify(w);
    await w.registry.dispatcher.settled();
    const [failed] = await deliveries(w);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, response_status: null });
    expect(failed?.error).toBe(`connect ECONNREFUSED ${host}:${port}`);
    const hook = await receiver(() => 200, port, host);
    expect((await resend(w, String(failed?.id))).status).toBe(202);
    await w.registry.dispatcher.settled();
    expect((await deliveries(w))[0]).toMatchObject({
      status: "delivered",
      attempts: 2,
      response_status: 200,
    });
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]?.body.id).toBe(failed?.envelope.id);
  });

  it("a full queue: deliveries past WEBHOOK_QUEUE_LIMIT fail at once, unsent; the rest go out in order", async () => {
    const w = world({ queueLimit: 2 });
    const hook = await receiver(() => "hang");
    const id = await addEndpoint(w, hook.url);
    expect((await notify(w, 5)).status).toBe(200);
    const overflowed = await deliveries(w, "?status=failed");
    expect(overflowed.map((d) => d.envelope.event.entity_id)).toEqual(["v_3", "v_4"]);
    for (const delivery of overflowed) {
      expect(delivery.attempts).toBe(0);
      expect(delivery.error).toBe(
        `not sent: 2 deliveries already wait for ${id} (LOYALTY_MOCK_WEBHOOK_QUEUE_LIMIT)`,
      );
    }
    hook.release(200);
    await w.registry.dispatcher.settled();
    expect(hook.received.map((got) => (got.body.event as { entity_id: string }).entity_id)).toEqual([
      "v_0",
      "v_1",
      "v_2",
    ]);
    expect((await deliveries(w, "?status=delivered")).length).toBe(3);
  });

  it("a target the server may not send to (from a document) fails without a connection", async () => {
    const w = world();
    const document = structuredClone(defaultDocuments().find((d) => d.project.id === "demo"));
    if (!document) throw new Error("no demo fixtures");
    document.webhooks = [
      {
        id: "wh_0000000000000000ff",
        object: "webhook",
        url: "http://192.0.2.10/hooks",
        events: [],
        active: true,
        headers: {},
        secret: "x",
        created_at: "2026-11-20T10:00:00.000Z",
      },
    ];
    w.registry.replace(document);
    await notify(w);
    await w.registry.dispatcher.settled();
    const [failed] = await deliveries(w);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, response_status: null });
    expect(failed?.error).toMatch(
      /^not sent: host 192\.0\.2\.10 is not allowed: .*LOYALTY_MOCK_WEBHOOK_HOSTS/,
    );
  });
});
