/// <reference lib="dom" />
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, launch, type Served, seen, serve } from "./browser.js";

/**
 * The dashboard open while a load test runs: the page follows it without asking the server for every panel ten
 * times a second (the feed's batches), which would take the event loop from the operations under test. The
 * figures of what the page costs are `npm run bench:dashboard`'s; this file checks the behaviour they rest on.
 */
const KEYS = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };
const LOAD_MS = 4000;
/** The page's gap between two fetches of a panel while the project is busy (ui/app.js BUSY_GAP_MS). */
const BUSY_GAP_MS = 1500;

let server: Served;
let browser: Browser;
let page: Page;
const fetched: { path: string; at: number }[] = [];

beforeAll(async () => {
  server = await serve({ LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: "0" });
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/__mock/projects/demo/")) fetched.push({ path: pathname, at: Date.now() });
  });
  await page.goto(`${server.url}/__mock/ui/#demo`);
  await seen(page, "#feed-status", "Live", 10_000);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Ten clients asking for a location as fast as the server answers, for `ms`; answers how many were answered. */
async function load(ms: number): Promise<number> {
  const until = Date.now() + ms;
  let answered = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (Date.now() < until) {
        const res = await fetch(`${server.url}/v1/locations/loc_demo_circle`, { headers: KEYS });
        await res.arrayBuffer();
        if (res.ok) answered++;
      }
    }),
  );
  return answered;
}

describe("the dashboard during a load test", () => {
  it("fetches each panel at most once per busy gap, and still shows the requests as they come", async () => {
    const start = Date.now();
    const answered = await load(LOAD_MS);
    expect(answered).toBeGreaterThan(LOAD_MS / 10);
    const journal = fetched.filter((f) => f.at >= start && f.path === "/__mock/projects/demo/requests");
    // The first batch is shown at once and the next after the ordinary gap; the rest wait the busy gap.
    expect(journal.length).toBeGreaterThanOrEqual(2);
    expect(journal.length).toBeLessThanOrEqual(Math.ceil(LOAD_MS / BUSY_GAP_MS) + 2);
    // Whatever the load, the journal on the page is at most a busy gap (and a fetch) behind the server's.
    await seen(
      page,
      "#requests .journal li:first-child summary",
      "GET /v1/locations/loc_demo_circle 200",
      BUSY_GAP_MS + 500,
    );
    // The status line's last word on the load comes after the load stopped, however soon after its previous one.
    await seen(
      page,
      "#feed-status",
      // In a sentence, the operation named as people call it (issue 45), not its path.
      /^Live\. [\d,]+ new calls?; the last, Get a location, answered 200\.$/,
      BUSY_GAP_MS + 500,
    );
  });

  it("is back to showing a single change at once when the load stops", async () => {
    await new Promise((resolve) => setTimeout(resolve, 2 * BUSY_GAP_MS + 500));
    const res = await call(server.url, "GET", "/v1/locations/loc_after_the_load", { headers: KEYS });
    expect(res.status).toBe(404);
    // "At once" is what this test is about: a page still pacing itself would show it only after a busy gap, so
    // the wait stays under that gap (the one wait in this tier that bounds a time, as the behaviour is a time).
    const atOnce = BUSY_GAP_MS - 500;
    await seen(
      page,
      "#requests .journal li:first-child summary",
      "GET /v1/locations/loc_after_the_load 404",
      atOnce,
    );
    await seen(page, "#feed-status", "Live. 1 new call; the last, Get a location, answered 404.", atOnce);
  });
});
