import { VoucherifyServerSide } from "@voucherify/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectDocumentSchema } from "../../src/domain/projects/project-document.js";
import { ManualClock } from "../../src/platform/clock.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { validateAny } from "../helpers/contract.js";
import { defaultDocuments, TINY_KEYS, tinyLoyaltyDocument } from "../helpers/world.js";

/**
 * The emulator as its users meet it: a real listening server, driven by the service's official JavaScript client
 * and by many clients at once.
 */
describe("the official @voucherify/sdk against a listening server", () => {
  let running: RunningServer;
  const client = () =>
    VoucherifyServerSide({ applicationId: "demo-app-id", secretKey: "demo-app-token", apiUrl: running.url });

  beforeAll(async () => {
    running = await startServer({ port: 0, documents: defaultDocuments(), clock: new ManualClock() });
  });
  afterAll(() => running.close());

  it("assigns a loyalty card with loyalties.createMember", async () => {
    const voucher = await client().loyalties.createMember("camp_demo_loyalty", {
      customer: { source_id: "sdk-user@example.com", name: "SDK User" },
      metadata: { via: "sdk" },
    });
    validateAny("POST", "/v1/loyalties/camp_demo_loyalty/members", 200, voucher);
    expect(voucher).toMatchObject({
      code: "DEMO-V8TK-XZ5F",
      campaign_id: "camp_demo_loyalty",
      type: "LOYALTY_CARD",
      loyalty_card: { points: 0, balance: 0 },
      publish: { count: 1 },
      object: "voucher",
    });
    expect(voucher.holder_id).toMatch(/^cust_/);
  });

  it("records a custom event with events.create", async () => {
    const event = await client().events.create("user_subscribed", {
      event: "user_subscribed", // the client's type asks for it; it sends the first argument's name either way
      customer: { source_id: "sdk-user@example.com" },
      metadata: { plan: "pro" },
    });
    validateAny("POST", "/v1/events", 200, event);
    expect(event).toMatchObject({
      object: "event",
      type: "user_subscribed",
      customer: { source_id: "sdk-user@example.com", name: "SDK User", object: "customer" },
      referral: null,
      loyalty: null,
    });
    const project = running.registry.get("demo");
    const card = project.vouchers.findByCode("DEMO-V8TK-XZ5F");
    expect(card?.loyalty_card?.points).toBe(100);
  });

  it("throws a VoucherifyError carrying the service's 404 for an unknown campaign", async () => {
    const error = await client()
      .loyalties.createMember("camp_nope", { customer: { source_id: "x" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: 404,
      key: "not_found",
      message: "Resource not found",
      details: "Cannot find campaign with id camp_nope",
      resource_id: "camp_nope",
      resource_type: "campaign",
      request_id: expect.stringMatching(/^v-[0-9a-f]{18}$/),
    });
  });

  it("throws the service's 400 for a refused assignment and a refused event", async () => {
    const joined = await client()
      .loyalties.createMember("camp_demo_loyalty", { customer: { id: "cust_demo_alice" } })
      .catch((caught: unknown) => caught);
    expect(joined).toMatchObject({ code: 400, key: "voucher_cannot_be_published" });
    const event = await client()
      .events.create("user_subscribed", { event: "user_subscribed", customer: { source_id: "x" } })
      .catch((caught: unknown) => caught);
    expect(event).toMatchObject({ code: 400, key: "metadata_validation_failed" });
  });

  it("reads a location with the client's default headers (Content-Type on a GET)", async () => {
    const response = await fetch(`${running.url}/v1/locations/loc_demo_circle`, {
      headers: {
        "X-App-Id": "demo-app-id",
        "X-App-Token": "demo-app-token",
        "Content-Type": "application/json",
      },
    });
    expect(response.status).toBe(200);
  });

  // Issue 15: the client's throttling reads X-Rate-Limit-Remaining off the last answer, as in production, where
  // every answer carries it (documentation/guides/limits.mdx, "Response headers").
  it("reads the project's real remaining API calls through apiLimitsHandler.getRateLimitRemaining()", async () => {
    const sdk = client();
    const window = async () => {
      const view = (await (await fetch(`${running.url}/__mock/projects/demo/settings`)).json()) as {
        rate_limit_window: { remaining: number };
      };
      return view.rate_limit_window;
    };
    await sdk.events.create("cart_abandoned", {
      event: "cart_abandoned",
      customer: { source_id: "sdk-limits" },
    });
    expect(sdk.apiLimitsHandler.areLimitsAvailable()).toBe(true);
    expect(sdk.apiLimitsHandler.getRateLimit()).toBe(2000);
    const first = sdk.apiLimitsHandler.getRateLimitRemaining();
    expect(first).toBe((await window()).remaining);
    await sdk.events.create("cart_abandoned", {
      event: "cart_abandoned",
      customer: { source_id: "sdk-limits" },
    });
    expect(sdk.apiLimitsHandler.getRateLimitRemaining()).toBe(first - 1);
  });
});

describe("card assignment under concurrency (real listening server)", () => {
  let running: RunningServer;

  beforeAll(async () => {
    const tiny = projectDocumentSchema.parse(
      tinyLoyaltyDocument({
        codes: Array.from({ length: 120 }, (_, i) => `C-${String(i).padStart(3, "0")}`),
      }),
    );
    running = await startServer({
      port: 0,
      documents: [...defaultDocuments(), tiny],
      clock: new ManualClock(),
    });
  });
  afterAll(() => running.close());

  const post = (path: string, body: unknown, keys: Record<string, string>) =>
    fetch(`${running.url}${path}`, {
      method: "POST",
      headers: { ...keys, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
    }));

  it("300 simultaneous requests for 120 cards: each card goes to one customer, every refusal is the right one", async () => {
    // 200 distinct customers, 50 of them asking twice (join-once refusals), 50 all asking for the same code.
    const requests = [
      ...Array.from({ length: 200 }, (_, i) => ({ customer: { source_id: `c-${i}` } })),
      ...Array.from({ length: 50 }, (_, i) => ({ customer: { source_id: `c-${i}` } })),
      ...Array.from({ length: 50 }, (_, i) => ({
        customer: { source_id: `same-code-${i}` },
        voucher: "C-119",
      })),
    ];
    const results = await Promise.all(
      requests.map((body) => post("/v1/loyalties/camp_tiny/members", body, TINY_KEYS)),
    );
    for (const result of results)
      validateAny("POST", "/v1/loyalties/camp_tiny/members", result.status, result.body);

    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(120);
    const codes = ok.map((r) => r.body.code as string);
    expect(new Set(codes).size).toBe(120);
    const holders = ok.map((r) => r.body.holder_id as string);
    expect(new Set(holders).size).toBe(120);

    const refusals = results.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.body.key}`);
    expect(refusals).toHaveLength(180);
    const allowed = new Set([
      "400 no_voucher_suitable_for_publication",
      "400 voucher_cannot_be_published",
      "400 voucher_already_published",
    ]);
    for (const refusal of refusals) expect(allowed.has(refusal), refusal).toBe(true);
    // The named card went to exactly one of the 50 who asked for it (or to a customer before them).
    const sameCode = results.slice(250).filter((r) => r.status === 200);
    expect(sameCode.length).toBeLessThanOrEqual(1);

    const project = running.registry.get("tiny");
    const held = project.vouchers.list().filter((v) => v.holder_id);
    expect(held).toHaveLength(120);
    expect(new Set(held.map((v) => v.holder_id)).size).toBe(120);
    expect(project.publications.size).toBe(120);
    for (const voucher of held) expect(voucher.publish.count).toBe(1);
    // Refused requests made no customer: each customer holds exactly one card.
    expect(project.customers.size).toBe(120);
  });

  it("concurrent joins by the same new customer give them one card only", async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        post(
          "/v1/loyalties/camp_demo_loyalty/members",
          { customer: { source_id: "racer" } },
          {
            "X-App-Id": "demo-app-id",
            "X-App-Token": "demo-app-token",
          },
        ),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200))
      expect(r.body).toMatchObject({ code: 400, key: "voucher_cannot_be_published" });
    const project = running.registry.get("demo");
    const racer = project.customers.findBySourceId("racer");
    expect(project.vouchers.heldBy(racer?.id as string)).toHaveLength(1);
  });
});
