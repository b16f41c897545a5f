import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  build,
  killGroup,
  launch,
  ROOT,
  type Started,
  startBuilt,
  waitForStderr,
} from "../helpers/process.js";

/**
 * Webhooks on the real process: an endpoint made through the control API survives a SIGTERM and a restart with
 * LOYALTY_MOCK_STATE_FILE, and `loyalty-mock webhooks listen` (the built bin) verifies what it gets.
 */

const MAIN = join(ROOT, "dist", "main.js");
let dir: string;
const processes: Started[] = [];
beforeAll(() => {
  build();
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-webhooks-"));
});
afterAll(() => {
  for (const started of processes) killGroup(started, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("webhook endpoints and LOYALTY_MOCK_STATE_FILE", () => {
  it("an endpoint survives SIGTERM and a restart; the outbox starts empty", async () => {
    const env = { LOYALTY_MOCK_STATE_FILE: join(dir, "state.json"), LOYALTY_MOCK_LOG_LEVEL: "error" };
    const first = await startBuilt(env);
    processes.push(first.server);
    const made = await fetch(`${first.base}/__mock/projects/demo/webhooks`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:4000/hooks", events: ["voucher.published"] }),
    });
    expect(made.status).toBe(201);
    const endpoint = await made.json();
    killGroup(first.server, "SIGTERM");
    expect(await first.server.exited).toEqual({ code: 0, signal: null });

    const second = await startBuilt(env);
    processes.push(second.server);
    const list = (await (await fetch(`${second.base}/__mock/projects/demo/webhooks`)).json()) as {
      webhooks: unknown[];
    };
    expect(list.webhooks).toEqual([endpoint]);
    const outbox = (await (
      await fetch(`${second.base}/__mock/projects/demo/webhooks/deliveries`)
    ).json()) as {
      total: number;
    };
    expect(outbox.total).toBe(0);
    killGroup(second.server, "SIGTERM");
    expect(await second.server.exited).toEqual({ code: 0, signal: null });
  });
});

describe("loyalty-mock webhooks listen", () => {
  it("prints 'verified' for a good signature (200) and 'BAD SIGNATURE' for a forged one (401)", async () => {
    const listener = launch("node", [MAIN, "webhooks", "listen", "--port", "0", "--secret", "s3cret"], {});
    processes.push(listener);
    const [, url] = await waitForStderr(listener, /listening on (http:\/\/\S+) /);
    const body = JSON.stringify({ id: "whs_1", type: "customer.created", event: { entity_id: "cust_1" } });
    const post = (signature: string) =>
      fetch(String(url), { method: "POST", headers: { "x-voucherify-signature": signature }, body });
    expect((await post(createHmac("sha256", "s3cret").update(body).digest("hex"))).status).toBe(200);
    expect((await post("forged")).status).toBe(401);
    killGroup(listener, "SIGTERM");
    expect(await listener.exited).toEqual({ code: 0, signal: null });
    expect(listener.stdout()).toMatch(/ verified customer\.created whs_1 \(entity cust_1\)\n/);
    expect(listener.stdout()).toMatch(/ BAD SIGNATURE customer\.created whs_1 /);
  });
});
