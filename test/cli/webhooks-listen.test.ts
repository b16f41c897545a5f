import { createHmac } from "node:crypto";
import type { Server } from "node:http";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../src/cli/command-line.js";
import { startListener } from "../../src/cli/webhooks-listen.js";
import { control } from "../helpers/control.js";
import { notification, notifyingApp } from "../helpers/receiver.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/** `loyalty-mock webhooks listen`, run in-process: its parsing, its answers and what it prints. */

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function listen(secret?: string) {
  const lines: string[] = [];
  const started = await startListener(
    { host: "127.0.0.1", port: 0, ...(secret !== undefined && { secret }) },
    (line) => lines.push(line),
  );
  servers.push(started.server);
  return { ...started, lines };
}

const envelope = {
  id: "whs_0123456789abcdef01",
  type: "voucher.published",
  event: { entity_id: "v_1" },
  data: {},
};
const text = JSON.stringify(envelope);
const sign = (body: string, secret: string) => createHmac("sha256", secret).update(body).digest("hex");

describe("webhooks listen: the command line", () => {
  it("reads --port, --secret and --host, with 4000 and 127.0.0.1 by default", () => {
    expect(parseCommandLine(["webhooks", "listen", "--port", "0", "--secret", "s"])).toEqual({
      command: "webhooks-listen",
      host: "127.0.0.1",
      port: 0,
      secret: "s",
    });
    expect(parseCommandLine(["webhooks", "listen"])).toEqual({
      command: "webhooks-listen",
      host: "127.0.0.1",
      port: 4000,
    });
    expect(() => parseCommandLine(["webhooks", "serve"])).toThrow(UsageError);
    expect(() => parseCommandLine(["webhooks", "listen", "--port", "http"])).toThrow(
      /^Invalid value for --port: "http"; expected a whole number from 0 to 65535, as in --port 4000$/,
    );
    expect(() => parseCommandLine(["webhooks", "listen", "--secrte", "s"])).toThrow(UsageError);
  });
});

describe("webhooks listen: the receiver", () => {
  it("200 and 'verified' for a good signature; 401 and 'BAD SIGNATURE' for another", async () => {
    const { url, lines } = await listen("s3cret");
    const good = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-voucherify-signature": sign(text, "s3cret") },
      body: text,
    });
    expect(good.status).toBe(200);
    const bad = await fetch(`${url}hooks`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-voucherify-signature": sign(text, "other") },
      body: text,
    });
    expect(bad.status).toBe(401);
    const unsigned = await fetch(url, { method: "POST", body: text });
    expect(unsigned.status).toBe(401);
    expect(lines.filter((_, i) => i % 2 === 0).map((line) => line.replace(/^\S+ /, ""))).toEqual([
      "verified voucher.published whs_0123456789abcdef01 (entity v_1)",
      "BAD SIGNATURE voucher.published whs_0123456789abcdef01 (entity v_1)",
      "BAD SIGNATURE voucher.published whs_0123456789abcdef01 (entity v_1)",
    ]);
    expect(lines[1]).toBe(text);
  });

  it("without --secret: 'unverified' and 200; a body that is not JSON is 400", async () => {
    const { url, lines } = await listen();
    expect((await fetch(url, { method: "POST", body: text })).status).toBe(200);
    expect(lines[0]).toMatch(/ unverified voucher\.published /);
    expect((await fetch(url, { method: "POST", body: "hello" })).status).toBe(400);
    expect(lines[2]).toMatch(/ not JSON: POST \/$/);
  });

  it("receives the server's deliveries: verified with the endpoint's secret, a failed one with another", async () => {
    const world = buildWorld();
    const right = await listen("shared");
    const wrong = await listen("not-the-endpoint's");
    for (const url of [right.url, wrong.url]) {
      const res = await control(world.app, {
        method: "POST",
        path: "/__mock/projects/demo/webhooks",
        body: { url, secret: "shared" },
      });
      expect(res.status).toBe(201);
    }
    await request(notifyingApp(world.registry))
      .post("/v1/test-notify")
      .set(DEMO_KEYS)
      .send({ notifications: [notification("voucher.published", "v_9")] })
      .expect(200);
    await world.registry.dispatcher.settled();
    expect(right.lines[0]).toMatch(/ verified voucher\.published whs_[0-9a-f]{18} \(entity v_9\)$/);
    expect(wrong.lines[0]).toMatch(/ BAD SIGNATURE voucher\.published /);
    const outbox = world.demo.outbox.list();
    expect(outbox.map((d) => [d.url, d.status, d.response_status])).toEqual([
      [right.url, "delivered", 200],
      [wrong.url, "failed", 401],
    ]);
  });
});
