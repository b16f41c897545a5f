/// <reference lib="dom" />
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinPaintMembers, PAINT_MEMBERS, timeFirstPaint } from "../../bench/first-paint.js";
import { writeBenchFixtures } from "../../bench/fixtures.js";
import { call, launch, type Served, seen, serve } from "./browser.js";

/** The benchmark's million-card project (bench/fixtures.ts, as `npm run bench` builds it). */
const CARDS = Number(process.env.SCALE_CARDS ?? 1_000_000);

let dir: string;
let server: Served;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-ui-scale-"));
  writeBenchFixtures(dir, { cards: CARDS, tierStructures: 3, incentives: 40 });
  server = await serve({ LOYALTY_MOCK_FIXTURES_DIR: dir, LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: "0" }, 240_000);
  await joinPaintMembers(server.url);
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
    const firstPaint = await timeFirstPaint(page, server.url, 30_000);
    console.log(
      `first paint with ${CARDS} cards: ${firstPaint.toFixed(0)} ms (the target is bench:dashboard's)`,
    );
    await seen(page, "#members .pager", `1–20 of ${PAINT_MEMBERS}`);
    expect(await page.$$eval("#members tbody tr", (rows) => rows.length)).toBe(20);
    expect(await page.$$eval("tr, li", (nodes) => nodes.length)).toBeLessThan(500);
  });

  it("pages members on the server and finds one by card code", async () => {
    await page.click('#members button[aria-label="Next page of members"]');
    await seen(page, "#members .pager", `21–40 of ${PAINT_MEMBERS}`);
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
