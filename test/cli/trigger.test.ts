import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTrigger } from "../../src/cli/trigger/command.js";
import { listLines, triggerNotification } from "../../src/cli/trigger/run.js";
import { WEBHOOK_EVENT_TYPES } from "../../src/domain/webhooks/types.js";
import { type RunningServer, startServer, verifySignature } from "../../src/index.js";
import { type Receiver, startReceiver } from "../helpers/receiver.js";
import { callControl } from "../helpers/running-server.js";
import { validateWebhookData } from "../helpers/webhook-contract.js";

/**
 * `loyalty-mock trigger`: every type the server declares (domain/webhooks/types.ts) is caused through a real
 * server with the demo's data, and arrives at a real receiver signed and valid against the vendor's webhook
 * schema (skipped and counted without the contract). A type with no cause fails here as well as in the type checker.
 */

const SECRET = "trigger-s3cret";
const TYPES = [...WEBHOOK_EVENT_TYPES];

describe("loyalty-mock trigger", () => {
  let server: RunningServer;
  let receiver: Receiver;
  const target = () => ({ url: server.url, maxAnswerBytes: 8 * 1024 * 1024, reader: "trigger" });

  beforeAll(async () => {
    server = await startServer({ port: 0 });
    receiver = await startReceiver();
    await callControl(server, "POST", "/__mock/projects/demo/webhooks", {
      url: receiver.url,
      secret: SECRET,
    });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it("lists every type the server sends, each with how it is caused", () => {
    const lines = listLines();
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual(TYPES);
    for (const line of lines) expect(line.split(/\s{2,}/)[1]?.length ?? 0).toBeGreaterThan(20);
  });

  it.each(TYPES)("causes %s: delivered, signed and valid against the vendor's schema", async (type) => {
    const result = await triggerNotification({ target: target(), projectId: "demo", type });
    if (!result.ok) throw new Error(result.message);
    expect(result.deliveries).toEqual([
      expect.objectContaining({ type, status: "delivered", url: receiver.url, responseStatus: 200 }),
    ]);
    const got = receiver.received.filter(
      ({ body }) => body.type === type && (body.event as { group_id?: string }).group_id === result.requestId,
    );
    expect(got).toHaveLength(1);
    const [one] = got;
    if (!one) throw new Error("not received");
    expect(verifySignature(String(one.headers["x-voucherify-signature"]), one.text, SECRET)).toBe(true);
    validateWebhookData(type, one.body.data);
  });

  it("names the customer it was told to, and refuses customer.created for one the project has", async () => {
    const made = await triggerNotification({
      target: target(),
      projectId: "demo",
      type: "voucher.published",
      customer: "zoe@example.com",
    });
    expect(made).toMatchObject({ ok: true, customer: "zoe@example.com" });
    const refused = await triggerNotification({
      target: target(),
      projectId: "demo",
      type: "customer.created",
      customer: "zoe@example.com",
    });
    expect(refused).toMatchObject({ ok: false, usage: true });
    if (!refused.ok)
      expect(refused.message).toMatch(
        /needs a customer the project does not have.*It causes customer\.created, customer\.updated/,
      );
  });

  it("records a notification no endpoint wants, and says so", async () => {
    const result = await triggerNotification({
      target: target(),
      projectId: "other",
      type: "customer.custom_event",
    });
    expect(result).toMatchObject({ ok: true, deliveries: [{ status: "not_sent", url: null }] });
  });

  it("says why a project's data cannot cause a type (no referral program in other)", async () => {
    const result = await triggerNotification({
      target: target(),
      projectId: "other",
      type: "customer.rewarded",
    });
    expect(result).toMatchObject({ ok: false, usage: true });
    if (!result.ok)
      expect(result.message).toMatch(
        /^cannot cause customer\.rewarded in project other: project other has no referral code/,
      );
  });

  it("refuses an unknown type at the command line, naming the nearest and every type it can cause", () => {
    expect(() => parseTrigger(["voucher.publish"])).toThrow(
      /unknown notification type "voucher.publish" \(did you mean voucher.published\?\); it can cause customer.created, .*customer.rewarded$/,
    );
    expect(() => parseTrigger([])).toThrow(/give a notification type/);
    expect(parseTrigger(["--list"])).toMatchObject({ command: "trigger", list: true });
    expect(() => parseTrigger(["voucher.published", "--url", "http://u:p@127.0.0.1:3000"])).toThrow(
      /user name or password/,
    );
  });

  it("follows no redirect: the key pair and the admin token stay with --url", async () => {
    const { createServer } = await import("node:http");
    const redirector = createServer((_req, res) => {
      res.writeHead(307, { location: `${server.url}/__mock/projects/demo/keys` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
    const { port } = redirector.address() as { port: number };
    const result = await triggerNotification({
      target: { ...target(), url: `http://127.0.0.1:${port}`, adminToken: "s3cret" },
      projectId: "demo",
      type: "voucher.published",
    });
    redirector.close();
    expect(result).toMatchObject({ ok: false, usage: false });
    if (!result.ok)
      expect(result.message).toMatch(
        /answered 307, a redirect.*: trigger follows no redirect, so that its credentials reach no other address$/,
      );
  });
});
