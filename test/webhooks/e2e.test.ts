import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/index.js";
import { type Receiver, startReceiver } from "../helpers/receiver.js";
import { validateWebhookData } from "../helpers/webhook-contract.js";
import { DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 16's end-to-end check: a real server and a real receiver on loopback, the endpoint configured through the
 * control API, each of the six operations driven over HTTP as a client would, and every notification the receiver
 * got checked: its type and order, its signature by the vendor's documented method (hex HMAC-SHA256 of the body
 * with the endpoint's secret), its envelope, and its `data` against the vendor's schema for its type.
 */

const SECRET = "e2e-secret";
const ENVELOPE_KEYS = ["id", "project_id", "created_at", "type", "data", "source", "event"];
const PAYMENT = [
  "voucher.loyalty_card.transaction.created",
  "voucher.loyalty_card.points_added",
  "customer.voucher.loyalty_card.points_added",
  "customer.rewarded.loyalty_points",
];

let server: RunningServer;
let receiver: Receiver;

beforeAll(async () => {
  server = await startServer({ port: 0, host: "127.0.0.1" });
  receiver = await startReceiver();
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function call(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: unknown } = {},
) {
  const form = path === "/v1/oauth/token";
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...init.headers,
      ...(init.body !== undefined && {
        "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json",
      }),
    },
    ...(init.body !== undefined && {
      body: form
        ? new URLSearchParams(init.body as Record<string, string>).toString()
        : JSON.stringify(init.body),
    }),
  });
  const text = await res.text();
  return {
    status: res.status,
    requestId: res.headers.get("x-request-id"),
    body: text ? JSON.parse(text) : null,
  };
}

/** Waits until every delivery queued so far has been attempted, then reads the project's outbox. */
async function outbox() {
  await server.registry.dispatcher.settled();
  const res = await call("GET", "/__mock/projects/demo/webhooks/deliveries");
  expect(res.status).toBe(200);
  return res.body.deliveries as { id: string; type: string; status: string; envelope: { id: string } }[];
}

describe("webhooks, end to end over loopback", () => {
  it("each operation's notifications reach the receiver in order, signed, in the vendor's shapes", async () => {
    const created = await call("POST", "/__mock/projects/demo/webhooks", {
      body: { url: receiver.url, secret: SECRET },
    });
    expect(created.status).toBe(201);
    const endpoint = created.body as { id: string };

    // Each step: the request, its expected status, and the notifications it must cause, in order.
    const token = await call("POST", "/v1/oauth/token", {
      headers: DEMO_KEYS,
      body: { grant_type: "client_credentials", scope: "api" },
    });
    expect(token.status).toBe(200);
    const v2 = { ...DEMO_KEYS, Authorization: `Bearer ${token.body.access_token}` };
    const steps: { name: string; requestId: string | null; types: string[] }[] = [
      { name: "token", requestId: token.requestId, types: [] },
    ];
    const step = async (
      name: string,
      method: string,
      path: string,
      status: number,
      types: string[],
      init: { headers?: Record<string, string>; body?: unknown } = { headers: DEMO_KEYS },
    ) => {
      const res = await call(method, path, init);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
      steps.push({ name, requestId: res.requestId, types });
      return res;
    };

    await step("location", "GET", "/v1/locations/loc_demo_circle", 200, []);
    const member = await step(
      "a new customer gets a card",
      "POST",
      "/v1/loyalties/camp_demo_loyalty/members",
      200,
      ["customer.created", "publication.succeeded", "customer.publication.succeeded", "voucher.published"],
      { headers: DEMO_KEYS, body: { customer: { source_id: "e2e@example.com", name: "E2E" } } },
    );
    await step("refused: an unknown campaign", "POST", "/v1/loyalties/camp_unknown/members", 404, [], {
      headers: DEMO_KEYS,
      body: { customer: { source_id: "nobody@example.com" } },
    });
    await step(
      "an event an earning rule pays",
      "POST",
      "/v1/events",
      200,
      ["customer.custom_event", ...PAYMENT],
      {
        headers: DEMO_KEYS,
        body: {
          event: "user_subscribed",
          customer: { source_id: "e2e@example.com" },
          metadata: { plan: "pro" },
        },
      },
    );
    await step(
      "a referral conversion",
      "POST",
      "/v1/events",
      200,
      ["customer.created", "customer.custom_event", "customer.rewarded"],
      {
        headers: DEMO_KEYS,
        body: {
          event: "referral_converted",
          customer: { source_id: "friend@example.com" },
          referral: { code: "REF-ALICE" },
        },
      },
    );
    await step("a v2 tier", "POST", "/v2/loyalties/tier-structures/lts_d0000000000000001/tiers", 200, [], {
      headers: v2,
      body: { name: "Gold", qualification_rules: { type: "POINTS", min_value: 5000, max_value: 9999 } },
    });
    await step(
      "a v2 incentive deleted",
      "DELETE",
      "/v2/loyalties/incentives/linc_d0000000000000001",
      200,
      [],
      {
        headers: v2,
      },
    );

    const deliveries = await outbox();
    const expected = steps.flatMap(({ types }) => types);
    expect(deliveries.map((d) => d.type)).toEqual(expected);
    expect(deliveries.every((d) => d.status === "delivered")).toBe(true);
    expect(receiver.received.map((r) => r.body.type)).toEqual(expected);

    const byRequest = steps.flatMap(({ requestId, types }) => types.map(() => requestId));
    for (const [i, got] of receiver.received.entries()) {
      const type = expected[i] as string;
      // The vendor's method: hex HMAC-SHA256 of the body as sent, with the endpoint's secret.
      const signature = createHmac("sha256", SECRET).update(got.text).digest("hex");
      expect(got.headers["x-voucherify-signature"], type).toBe(signature);
      expect(got.headers["content-type"]).toMatch(/^application\/json/);
      expect(got.text, "compact JSON").toBe(JSON.stringify(JSON.parse(got.text)));
      const envelope = got.body as Record<string, Record<string, unknown>>;
      expect(Object.keys(envelope)).toEqual(ENVELOPE_KEYS);
      expect(envelope.id).toBe(deliveries[i]?.envelope.id);
      expect(envelope.id).toMatch(/^whs_[0-9a-f]{18}$/);
      expect(envelope.project_id).toBe("demo");
      expect(Date.parse(envelope.created_at as unknown as string)).not.toBeNaN();
      expect(envelope.source).toEqual({ id: endpoint.id, object: "webhook", target_url: receiver.url });
      expect(envelope.event).toMatchObject({
        type,
        group_id: byRequest[i],
        event_source: { channel: "API", api_key: { app_id: DEMO_KEYS["X-App-Id"] } },
      });
      expect(envelope.event?.id).toMatch(/^ev[a-z]{3}_[0-9a-f]{18}$/);
      expect(typeof envelope.event?.entity_id).toBe("string");
      validateWebhookData(type, envelope.data);
    }

    // The notifications speak of what the operations answered.
    const card = member.body as { id: string; code: string; holder_id: string };
    const published = receiver.received.find((r) => r.body.type === "voucher.published")?.body;
    expect(published?.data).toMatchObject({ voucher: { id: card.id, code: card.code } });
    expect((published?.event as { entity_id: string } | undefined)?.entity_id).toBe(card.id);
    const customerCreated = receiver.received[0]?.body as { data: { customer: { id: string } } };
    expect(customerCreated.data.customer.id).toBe(card.holder_id);
  });

  it("with no endpoint, a test can still read what an operation would have notified", async () => {
    const empty = await startServer({ port: 0, host: "127.0.0.1" });
    try {
      const res = await fetch(`${empty.url}/v1/loyalties/camp_demo_loyalty/members`, {
        method: "POST",
        headers: { ...DEMO_KEYS, "Content-Type": "application/json" },
        body: JSON.stringify({ customer: { source_id: "outbox@example.com" } }),
      });
      expect(res.status).toBe(200);
      const list = await fetch(`${empty.url}/__mock/projects/demo/webhooks/deliveries`);
      const { deliveries } = (await list.json()) as {
        deliveries: { type: string; status: string; webhook_id: null; envelope: { data: unknown } }[];
      };
      expect(deliveries.map((d) => [d.type, d.status, d.webhook_id])).toEqual([
        ["customer.created", "not_sent", null],
        ["publication.succeeded", "not_sent", null],
        ["customer.publication.succeeded", "not_sent", null],
        ["voucher.published", "not_sent", null],
      ]);
      for (const d of deliveries) validateWebhookData(d.type, d.envelope.data);
    } finally {
      await empty.close();
    }
  });
});
