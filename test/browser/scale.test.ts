/// <reference lib="dom" />
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BENCH_CAMPAIGN, BENCH_EVENT, BENCH_KEYS, writeBenchFixtures } from "../../bench/fixtures.js";
import { call, launch, type Served, seen, serve } from "./browser.js";

/** The benchmark's million-card project (bench/fixtures.ts, as `npm run bench` builds it). */
const CARDS = Number(process.env.SCALE_CARDS ?? 1_000_000);
const MEMBERS = 45;

let dir: string;
let server: Served;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-ui-scale-"));
  writeBenchFixtures(dir, { cards: CARDS, tierStructures: 3, incentives: 40 });
  server = await serve({ LOYALTY_MOCK_FIXTURES_DIR: dir, LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: "0" }, 240_000);
  for (let i = 0; i < MEMBERS; i++) {
    const source = `member-${i}@example.com`;
    const member = await call(server.url, "POST", `/v1/loyalties/${BENCH_CAMPAIGN}/members`, {
      headers: BENCH_KEYS,
      json: { customer: { source_id: source, email: source, name: `Member ${i}` } },
    });
    expect(member.status).toBe(200);
    const event = await call(server.url, "POST", "/v1/events", {
      headers: BENCH_KEYS,
      json: { event: BENCH_EVENT, customer: { source_id: source }, metadata: { plan: "pro" } },
    });
    expect(event.status).toBe(200);
  }
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe(`the dashboard over the ${CARDS.toLocaleString("en")}-card benchmark project`, () => {
  // The first paint's time is a target of `npm run bench:dashboard`, which measures it on its own: a test on a
  // machine doing other work would time that work too. Here: one page of each panel, whatever the cards.
  it("paints the members, events, tiers and journal, one page of each", async () => {
    // A renderer for the server's origin first: its start is the browser's, not the page's.
    await page.goto(`${server.url}/__mock/health`);
    const started = Date.now();
    const log: string[] = [];
    page.on("requestfinished", (r) => log.push(`${Date.now() - started} ${r.url().replace(server.url, "")}`));
    await page.goto(`${server.url}/__mock/ui/#bench`);
    await Promise.all([
      page.waitForSelector("#members tbody tr", { timeout: 30_000 }),
      page.waitForSelector("#events .timeline li", { timeout: 30_000 }),
      page.waitForSelector("#loyalty [data-incentive]", { timeout: 30_000 }),
      page.waitForSelector("#requests .journal li", { timeout: 30_000 }),
    ]);
    const firstPaint = Date.now() - started;
    if (process.env.DEBUG_PAINT) console.log(log.join("\n"));
    console.log(`first paint with ${CARDS} cards: ${firstPaint} ms (the target is bench:dashboard's)`);
    await seen(page, "#members .pager", `1–20 of ${MEMBERS}`);
    expect(await page.$$eval("#members tbody tr", (rows) => rows.length)).toBe(20);
    expect(await page.$$eval("tr, li", (nodes) => nodes.length)).toBeLessThan(500);
  });

  it("pages members on the server and finds one by card code", async () => {
    await page.click('#members button[aria-label="Next page of members"]');
    await seen(page, "#members .pager", `21–40 of ${MEMBERS}`);
    const held = await call(server.url, "GET", `/__mock/projects/bench/vouchers?code=BENCH-00000007`);
    expect(held.body.vouchers[0].holder_id).toMatch(/^cust_/);
    await page.fill("#member-search", "BENCH-00000007");
    await page.press("#member-search", "Enter");
    await page.waitForFunction(() => document.querySelectorAll("#members tbody tr").length === 1, null, {
      timeout: 10_000,
    });
    await seen(page, "#members tbody", "BENCH-00000007");
    await seen(page, "#members tbody", "member-7@example.com");
  });
});
