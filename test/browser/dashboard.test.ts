/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process.js";
import { type Receiver, startReceiver } from "../helpers/receiver.js";
import { call, launch, type Served, seen, serve } from "./browser.js";

const ADMIN = "demo-admin-token";
const ADMIN_HEADER = { "X-Mock-Admin-Token": ADMIN };
const KEYS = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };
/**
 * How long a change may take to appear without a reload (the feed's batching window, the page's fetches, the
 * rendering) before the test calls it missing: ten times what it takes on a busy machine, as a guard. How fast it
 * appears is not a test's to bound.
 */
const LIVE_MS = 10_000;

let server: Served;
let receiver: Receiver;
let browser: Browser;
let page: Page;
let code = "";

beforeAll(async () => {
  server = await serve({ LOYALTY_MOCK_ADMIN_TOKEN: ADMIN });
  // A real receiver on loopback, subscribed before any operation: the demo's webhooks are delivered, not only kept.
  receiver = await startReceiver();
  const endpoint = await call(server.url, "POST", "/__mock/projects/demo/webhooks", {
    headers: ADMIN_HEADER,
    json: { url: receiver.url, secret: "demo-secret" },
  });
  if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status}`);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1440, height: 1280 } });
  page.on("pageerror", (error) => {
    throw error;
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

const op = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
  call(server.url, method, path, { ...options, headers: { ...KEYS, ...options.headers } });

describe("the dashboard at /__mock/ui/", () => {
  it("asks for the admin token, sends it in a header, and goes live", async () => {
    const urls: string[] = [];
    page.on("request", (request) => urls.push(request.url()));
    await page.goto(`${server.url}/__mock/ui/#demo`);
    await page.waitForSelector("#token-dialog[open]", { timeout: 10_000 });
    await page.fill("#token", ADMIN);
    await page.press("#token", "Enter");
    await seen(page, "#feed-status", "Live", 10_000);
    await seen(page, "#members", "Alice Nowak", 10_000);
    await seen(page, "#control-mode", "Control API: admin token required", 10_000);
    expect(urls.filter((url) => url.includes(ADMIN))).toEqual([]);
    expect(await page.$eval("#project", (select) => (select as HTMLSelectElement).value)).toBe("demo");
  });

  it("shows a new member and card as the members operation makes them", async () => {
    const res = await op("POST", "/v1/loyalties/camp_demo_loyalty/members", {
      json: { customer: { source_id: "dana@example.com", name: "Dana Demo", email: "dana@example.com" } },
    });
    expect(res.status).toBe(200);
    code = res.body.code;
    await seen(page, "#members tbody tr:first-child", "Dana Demo", LIVE_MS);
    await seen(page, `#members [data-card="${code}"]`, "0 points", LIVE_MS);
  });

  it("shows the points a custom event earned, on the card and in the timeline", async () => {
    const res = await op("POST", "/v1/events", {
      json: {
        event: "user_subscribed",
        customer: { source_id: "dana@example.com" },
        metadata: { plan: "pro" },
      },
    });
    expect(res.status).toBe(200);
    await seen(page, `#members [data-card="${code}"]`, "100 points, balance 100", LIVE_MS);
    await seen(page, "#events .timeline li:first-child", /user_subscribed.*\+100 points/, LIVE_MS);
  });

  it("puts a new tier on its structure's axis, and shows a deleted incentive as DELETED", async () => {
    const token = await op("POST", "/v1/oauth/token", { form: "grant_type=client_credentials&scope=api" });
    const v2 = { Authorization: `Bearer ${token.body.access_token}` };
    const tier = await op("POST", "/v2/loyalties/tier-structures/lts_d0000000000000001/tiers", {
      headers: v2,
      json: { name: "Gold", qualification_rules: { type: "POINTS", min_value: 5000 } },
    });
    expect(tier.status).toBe(200);
    await seen(
      page,
      '[data-structure="lts_d0000000000000001"] [data-tier="Gold"]',
      "5,000 and above",
      LIVE_MS,
    );
    // A tier in the generally available form that needs a segment as well: listed with its segment and range.
    const vipGold = await op("POST", "/v2/loyalties/tier-structures/lts_d0000000000000003/tiers", {
      headers: v2,
      json: {
        name: "VIP Gold",
        qualification_rules: {
          type: "POINTS_AND_SEGMENT",
          points: { min_value: 50000 },
          segment: { id: "seg_demo_vip" },
        },
      },
    });
    expect(vipGold.status).toBe(200);
    await seen(
      page,
      '[data-structure="lts_d0000000000000003"]',
      "VIP Gold (seg_demo_vip, points 50,000 and above)",
      LIVE_MS,
    );
    const gone = await op("DELETE", "/v2/loyalties/incentives/linc_d0000000000000001", { headers: v2 });
    expect(gone.status).toBe(200);
    await seen(page, '[data-incentive="linc_d0000000000000001"]', "DELETED", LIVE_MS);
  });

  it("lists the journal live, newest first, and opens a row to its request and answer", async () => {
    const res = await op("GET", "/v1/locations/loc_nope");
    expect(res.status).toBe(404);
    await seen(page, "#requests .journal li:first-child summary", "GET /v1/locations/loc_nope 404", LIVE_MS);
    for (const path of ["/v2/loyalties/incentives/linc_d0000000000000001", "/v1/events", "/v1/oauth/token"])
      await seen(page, "#requests .journal", path, LIVE_MS);
    await page.click("#requests .journal li:first-child summary");
    await seen(page, "#requests .journal li:first-child pre", '"resource_id": "loc_nope"', LIVE_MS);
    await page.selectOption("#request-operation", { label: "Custom event" });
    await page.waitForFunction(() => document.querySelectorAll("#requests .journal li").length === 1, null, {
      timeout: LIVE_MS,
    });
    await seen(page, "#requests .journal summary", "POST /v1/events 200", LIVE_MS);
    await page.selectOption("#request-operation", "");
    await page.selectOption("#request-status", "2xx");
    await seen(
      page,
      "#requests .journal li:first-child summary",
      "DELETE /v2/loyalties/incentives/",
      LIVE_MS,
    );
    await page.selectOption("#request-status", "");
  });

  it("takes the README's screenshot in this demo state", async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const png = await page.screenshot({ fullPage: false });
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    // Written only when asked (npm run screenshot), so a test run leaves the working tree as it was.
    if (process.env.UPDATE_SCREENSHOT) writeFileSync(join(ROOT, "docs/dashboard.png"), png);
  });

  it("shows each webhook delivery as the receiver answers it, and resends one from the page", async () => {
    const got = receiver.received.length;
    const member = await op("POST", "/v1/loyalties/camp_demo_loyalty/members", {
      json: { customer: { source_id: "webhook-demo@example.com", name: "Wendy Webhook" } },
    });
    expect(member.status).toBe(200);
    const types = [
      "customer.created",
      "publication.succeeded",
      "customer.publication.succeeded",
      "voucher.published",
    ];
    // Delivered off the request path: the receiver has all four within the second the page is given too.
    const deadline = Date.now() + LIVE_MS;
    while (receiver.received.length < got + types.length) {
      if (Date.now() > deadline)
        throw new Error(`the receiver got ${receiver.received.length - got} notifications`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const list = await call(server.url, "GET", "/__mock/projects/demo/webhooks/deliveries?limit=50", {
      headers: ADMIN_HEADER,
    });
    // biome-ignore lint/suspicious/noExplicitAny: the control API's JSON, as documented
    const mine = (list.body.deliveries as any[]).slice(-types.length);
    expect(mine.map((d) => [d.type, d.status])).toEqual(types.map((type) => [type, "delivered"]));
    expect(receiver.received.slice(got).map((r) => r.body.type)).toEqual(types);
    for (const d of mine)
      await seen(
        page,
        `#webhooks [data-delivery="${d.id}"]`,
        new RegExp(
          `${d.type.replaceAll(".", "\\.")}[\\s\\S]*delivered[\\s\\S]*200 in \\d+ ms[\\s\\S]*1 attempt\\b`,
        ),
        LIVE_MS,
      );
    const created = mine[0];
    const before = receiver.received.length;
    await page.click(`#webhooks [data-delivery="${created.id}"] button`);
    await seen(page, `#webhooks [data-delivery="${created.id}"]`, "2 attempts", LIVE_MS);
    expect(receiver.received.length).toBe(before + 1);
    expect(receiver.received.at(-1)?.body).toMatchObject({ type: "customer.created" });
  });

  it("injects a fault on an operation for its next call and sets the rate limit, from the page", async () => {
    await page.selectOption("#fault-operation", { label: "Get a location" });
    await page.fill("#fault-status", "503");
    await page.fill("#fault-times", "1");
    await page.click("text=Add the fault");
    await seen(page, "#controls [data-fault]", "GET /v1/locations/{locationId} → 503, 1 left", LIVE_MS);
    const hit = await op("GET", "/v1/locations/loc_demo_circle");
    expect(hit.status).toBe(503);
    await seen(
      page,
      "#requests .journal li:first-child summary",
      /loc_demo_circle 503 .*fault error/,
      LIVE_MS,
    );
    expect((await op("GET", "/v1/locations/loc_demo_circle")).status).toBe(200);
    await page.fill("#rate-limit", "500");
    await page.fill("#rate-window", "60");
    await page.click("text=Set the limit");
    await seen(page, "#rate-limit-now", /^500 per 60 s(;|$)/, LIVE_MS);
    const settings = await call(server.url, "GET", "/__mock/projects/demo/settings", {
      headers: ADMIN_HEADER,
    });
    expect(settings.body.settings.rate_limit).toEqual({ limit: 500, window_seconds: 60 });
  });

  it("moves the project's clock from the page", async () => {
    const before = await call(server.url, "GET", "/__mock/projects/demo/clock", { headers: ADMIN_HEADER });
    await page.selectOption("#clock-advance", "86400");
    await page.click("text=Advance the clock");
    await seen(page, "#clock-now", "s ahead", LIVE_MS);
    const after = await call(server.url, "GET", "/__mock/projects/demo/clock", { headers: ADMIN_HEADER });
    expect(after.body.offset_ms - before.body.offset_ms).toBe(86_400_000);
  });

  it("resets the project from the page, with a second press to confirm, by keyboard", async () => {
    const reset = page.locator("#controls button.danger");
    await reset.focus();
    await page.keyboard.press("Enter");
    await seen(page, "#feed-status", "Press Reset again", LIVE_MS);
    await page.keyboard.press("Enter");
    await seen(page, "#feed-status", "reset to its fixtures", LIVE_MS);
    const dana = await call(server.url, "GET", "/__mock/projects/demo/customers?source_id=dana@example.com", {
      headers: ADMIN_HEADER,
    });
    expect(dana.body.total).toBe(0);
    await page.waitForFunction(
      () => !document.querySelector("#members")?.textContent?.includes("Dana Demo"),
      null,
      {
        timeout: LIVE_MS,
      },
    );
    await seen(page, '[data-incentive="linc_d0000000000000001"]', "ACTIVE", LIVE_MS);
  });

  it("has landmarks, labelled controls, a polite live region and a large-type switch", async () => {
    expect(await page.$$eval("header, nav, main", (els) => els.map((e) => e.tagName))).toEqual([
      "HEADER",
      "NAV",
      "MAIN",
    ]);
    expect(await page.getAttribute("#feed-status", "aria-live")).toBe("polite");
    const unlabelled = await page.$$eval("input, select", (els) =>
      els.filter((e) => (e as HTMLInputElement).labels?.length === 0).map((e) => e.id),
    );
    expect(unlabelled).toEqual([]);
    const size = () => page.$eval("h2", (e) => Number.parseFloat(getComputedStyle(e).fontSize));
    const normal = await size();
    await page.focus("#large-type");
    await page.keyboard.press("Space");
    expect(await page.getAttribute("#large-type", "aria-pressed")).toBe("true");
    expect(await size()).toBeCloseTo(normal * 1.5, 0);
  });
});
