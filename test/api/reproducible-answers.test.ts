import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, type StartOptions, startServer } from "../../src/index.js";
import { rawRequest } from "../helpers/raw-http.js";
import { type Receiver, startReceiver } from "../helpers/receiver.js";
import { DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 28's done-when: two fresh servers with the same seed and frozen clock, sent the same requests (the six
 * operations, a project created through the control API, a webhook endpoint), answer byte for byte the same,
 * X-Request-Id included, and send the same webhook bodies; another seed gives other ids; no seed keeps them random.
 */

const FROZEN = "2026-03-01T09:00:00.000Z";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

interface Exchange {
  status: number;
  requestId: string | null;
  text: string;
}

async function call(
  server: RunningServer,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: unknown; form?: boolean } = {},
): Promise<Exchange> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...init.headers,
      ...(init.body !== undefined && {
        "Content-Type": init.form ? "application/x-www-form-urlencoded" : "application/json",
      }),
    },
    ...(init.body !== undefined && {
      body: init.form
        ? new URLSearchParams(init.body as Record<string, string>).toString()
        : JSON.stringify(init.body),
    }),
  });
  return { status: res.status, requestId: res.headers.get("x-request-id"), text: await res.text() };
}

/** The same script of requests, on a fresh server: every answer, then every webhook body the receiver got. */
async function run(options: StartOptions): Promise<{ answers: Exchange[]; webhooks: string[] }> {
  receiver.received.length = 0;
  const server = await startServer({ port: 0, ...options });
  try {
    const answers: Exchange[] = [];
    const step = async (...args: Parameters<typeof call> extends [unknown, ...infer Rest] ? Rest : never) => {
      const exchange = await call(server, ...args);
      expect(exchange.status, exchange.text).toBeLessThan(300);
      answers.push(exchange);
      return JSON.parse(exchange.text);
    };
    await step("POST", "/__mock/projects/demo/webhooks", { body: { url: receiver.url } });
    const created = await step("POST", "/__mock/projects", { body: { template: "demo" } });
    const token = await step("POST", "/v1/oauth/token", {
      headers: DEMO_KEYS,
      body: { grant_type: "client_credentials", scope: "api" },
      form: true,
    });
    await step("POST", "/v1/oauth/token", {
      headers: { "X-App-Id": created.app_id, "X-App-Token": created.app_token },
      body: { grant_type: "client_credentials", scope: "api" },
      form: true,
    });
    await step("GET", "/v1/locations/loc_demo_circle", { headers: DEMO_KEYS });
    await step("POST", "/v1/loyalties/camp_demo_loyalty/members", {
      headers: DEMO_KEYS,
      body: { customer: { source_id: "snap@example.com", name: "Snap" } },
    });
    await step("POST", "/v1/events", {
      headers: DEMO_KEYS,
      body: {
        event: "user_subscribed",
        customer: { source_id: "snap@example.com" },
        metadata: { plan: "pro" },
      },
    });
    const v2 = { ...DEMO_KEYS, Authorization: `Bearer ${token.access_token}` };
    await step("POST", "/v2/loyalties/tier-structures/lts_d0000000000000001/tiers", {
      headers: v2,
      body: { name: "Gold", qualification_rules: { type: "POINTS", min_value: 5000, max_value: 9999 } },
    });
    await step("DELETE", "/v2/loyalties/incentives/linc_d0000000000000001", { headers: v2 });
    // A refusal carries its request id in the body as well.
    answers.push(await call(server, "GET", "/v1/locations/loc_nope", { headers: DEMO_KEYS }));
    await server.registry.dispatcher.settled();
    return { answers, webhooks: receiver.received.map((received) => received.text) };
  } finally {
    await server.close();
  }
}

function requestIds(result: { answers: Exchange[] }): (string | null)[] {
  return result.answers.map((answer) => answer.requestId);
}

describe("LOYALTY_MOCK_SEED and LOYALTY_MOCK_FREEZE_CLOCK", () => {
  it("two fresh servers with the same seed and frozen clock answer byte for byte the same", async () => {
    const first = await run({ seed: "snapshots", freezeClock: FROZEN });
    const second = await run({ seed: "snapshots", freezeClock: FROZEN });
    expect(second).toEqual(first);
    expect(first.webhooks.length).toBeGreaterThan(4);
    expect(requestIds(first).every((id) => /^v-[0-9a-f]{18}$/.test(id ?? ""))).toBe(true);
    // The frozen clock stamps what the operations made, and nothing moved it between requests.
    const member = JSON.parse(first.answers[5]?.text ?? "{}");
    expect(member.updated_at).toBe(FROZEN);
    expect(JSON.parse(first.webhooks[0] ?? "{}").created_at).toBe(FROZEN);
  });

  it("another seed gives other ids; no seed gives other ids on every run", async () => {
    const seeded = await run({ seed: "snapshots", freezeClock: FROZEN });
    const other = await run({ seed: "another", freezeClock: FROZEN });
    const unseeded = [await run({ freezeClock: FROZEN }), await run({ freezeClock: FROZEN })];
    const ids = [seeded, other, ...unseeded].map(requestIds);
    for (const [i, mine] of ids.entries())
      for (const theirs of ids.slice(i + 1))
        expect(
          mine.filter((id) => theirs.includes(id)),
          "no request id shared",
        ).toEqual([]);
    expect(other.answers[5]?.text).not.toBe(seeded.answers[5]?.text);
    expect(unseeded[0]?.answers[1]?.text).not.toBe(unseeded[1]?.answers[1]?.text);
  });

  it("an answer given before the app (bad HTTP) takes its request id from the server's seeded generator", async () => {
    const refusal = async () => {
      const server = await startServer({ port: 0, seed: "snapshots" });
      try {
        const res = await rawRequest(server.port, Buffer.from("GET /v1/locations HTTP/1.1\r\n\r\n"));
        expect(res.status).toBe(400);
        return res.headers["x-request-id"];
      } finally {
        await server.close();
      }
    };
    const id = await refusal();
    expect(id).toMatch(/^v-[0-9a-f]{18}$/);
    expect(await refusal()).toBe(id);
  });
});
