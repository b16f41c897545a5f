import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/index.js";
import { docBlock } from "../helpers/consumer.js";
import { type Receiver, startReceiver } from "../helpers/receiver.js";

/**
 * The blocks of docs/guide/webhooks.md that are not a shell session: the shape of a delivery in "Endpoints and the
 * outbox (control API)", and the signature check a receiver copies from "The envelope and its signature".
 */
const PAGE = "docs/guide/webhooks.md";

describe(`${PAGE}, as written`, () => {
  let mock: RunningServer;
  let receiver: Receiver;
  beforeAll(async () => {
    mock = await startServer({ port: 0 });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await mock.close();
  });

  async function delivered(): Promise<{ delivery: Record<string, unknown> }> {
    await fetch(`${mock.url}/__mock/projects/demo/webhooks`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ url: receiver.url, secret: "s3cret" }),
    });
    await fetch(`${mock.url}/v1/loyalties/camp_demo_loyalty/members`, {
      method: "POST",
      headers: {
        "X-App-Id": "demo-app-id",
        "X-App-Token": "demo-app-token",
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ customer: { source_id: "zoe@example.com" } }),
    });
    await mock.registry.dispatcher.settled();
    const outbox = (await (await fetch(`${mock.url}/__mock/projects/demo/webhooks/deliveries`)).json()) as {
      deliveries: Record<string, unknown>[];
    };
    return { delivery: outbox.deliveries.at(-1) as Record<string, unknown> };
  }

  it("Endpoints and the outbox (control API): a delivery has the fields the page shows, in its order", async () => {
    const shown = docBlock(PAGE, "## Endpoints and the outbox (control API)", "json");
    // The page's keys at the top level, in order (the envelope's own are elided there).
    const keys = [...shown.replace(/"envelope":\{[^}]*\}/, '"envelope":0').matchAll(/"(\w+)":/g)].map(
      (m) => m[1],
    );
    const { delivery } = await delivered();
    expect(keys).toEqual(Object.keys(delivery));
    expect(delivery).toMatchObject({
      object: "webhook_delivery",
      status: "delivered",
      attempts: 1,
      error: null,
    });
  });

  it("The envelope and its signature: the page's function accepts what the server signs, and the vendor's example", async () => {
    const code = docBlock(PAGE, "## The envelope and its signature", "ts");
    // Imported as a .ts file, which vitest compiles as it compiles the suite (loading the TypeScript compiler
    // for one function took about a second of the fast tier).
    const file = join(mkdtempSync(join(tmpdir(), "loyalty-mock-webhooks-page-")), "verified.ts");
    writeFileSync(file, `${code}\nexport { verified };\n`);
    const { verified } = (await import(file)) as {
      verified: (raw: string, signature: string, secret: string) => boolean;
    };
    rmSync(dirname(file), { recursive: true, force: true });
    const documented = "a17d2ac229d1ebbb5f10e839c7985c4818e5986eab297f7e5979196d4d7d3ed2";
    expect(verified('{"a":1}', documented, "secretKey")).toBe(true);
    expect(verified('{"a":2}', documented, "secretKey")).toBe(false);
    await delivered();
    const got = receiver.received.at(-1);
    const signature = got?.headers["x-voucherify-signature"] as string;
    expect(verified(got?.text as string, signature, "s3cret")).toBe(true);
    expect(
      verified(got?.text as string, createHmac("sha256", "other").update("x").digest("hex"), "s3cret"),
    ).toBe(false);
  });
});
