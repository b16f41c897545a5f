/// <reference lib="dom" />
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, launch, type Served, seen, serve } from "./browser.js";

/**
 * The overview open while the project changes: the page asks for it again at most once per batch of changes the
 * live feed tells (ui/refresher.js; issue 44: each ask was a pass over the project, on the operations' event
 * loop). The test reads the same feed as the page, so it counts the batches the page was told of.
 */
const KEYS = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };
const OVERVIEW = "/__mock/projects/demo/overview";

let server: Served;
let browser: Browser;
let page: Page;
const overviews: number[] = [];
const batches: number[] = [];
const feed = new AbortController();

/** Counts the feed's batches that concern the overview (records, clock, project), as the page receives them. */
async function follow(url: string): Promise<void> {
  const res = await fetch(`${url}/__mock/projects/demo/feed`, {
    headers: { Accept: "text/event-stream" },
    signal: feed.signal,
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split("\n").find((line) => line.startsWith("data:"));
      if (!block.startsWith("event: change") || !data) continue;
      const { topics } = JSON.parse(data.slice(5)) as { topics: string[] };
      if (topics.some((topic) => ["records", "clock", "project"].includes(topic))) batches.push(Date.now());
    }
  }
}

beforeAll(async () => {
  server = await serve({ LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: "0" });
  follow(server.url).catch(() => undefined);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === OVERVIEW) overviews.push(Date.now());
  });
  await page.goto(`${server.url}/__mock/ui/?view=overview#demo`);
  await seen(page, "#feed-status", "Live", 10_000);
  await seen(page, "#stat-members", /\d/, 10_000);
});

afterAll(async () => {
  feed.abort();
  await browser?.close();
  await server?.close();
});

const since = (list: number[], start: number) => list.filter((at) => at >= start).length;
const event = (sourceId: string) =>
  call(server.url, "POST", "/v1/events", {
    headers: KEYS,
    json: { event: "user_subscribed", customer: { source_id: sourceId }, metadata: { plan: "pro" } },
  });
/** Lets the feed's last batch reach the page and the page act on it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2500));

describe("the overview as the project changes", () => {
  it("one change: one batch, one fetch", async () => {
    await settle();
    const start = Date.now();
    const points = (await call(server.url, "GET", OVERVIEW)).body.points_issued as number;
    expect((await event("alice@example.com")).status).toBe(200);
    await seen(page, "#stat-points", (points + 100).toLocaleString("en"), 10_000);
    await settle();
    expect(since(batches, start)).toBe(1);
    expect(since(overviews, start)).toBe(1);
  });

  it("Reset demo: the restore is fetched once, by the feed's batch, not again by the page", async () => {
    expect(
      (await call(server.url, "POST", "/__mock/projects/demo/snapshots", { json: { name: "before" } }))
        .status,
    ).toBe(201);
    await page.reload();
    await seen(page, "#feed-status", "Live", 10_000);
    await event("alice@example.com");
    await settle();
    const start = Date.now();
    await page.selectOption("#snapshot-pick", "before");
    await page.click("#reset-demo");
    await seen(page, "#feed-status", "Demo reset to snapshot before.", 10_000);
    await settle();
    expect(since(batches, start)).toBe(1);
    expect(since(overviews, start)).toBe(1);
  });

  it("under a stream of events, fewer fetches than batches, and the last change shown", async () => {
    await settle();
    const start = Date.now();
    const until = start + 3000;
    let sent = 0;
    await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        while (Date.now() < until) {
          if ((await event(`load-${i}@example.com`)).status === 200) sent++;
        }
      }),
    );
    const overview = (await call(server.url, "GET", OVERVIEW)).body;
    await seen(page, "#stat-points", (overview.points_issued as number).toLocaleString("en"), 10_000);
    await settle();
    expect(sent).toBeGreaterThan(20);
    const told = since(batches, start);
    const fetched = since(overviews, start);
    expect(told).toBeGreaterThan(3);
    expect(fetched).toBeGreaterThanOrEqual(1);
    expect(fetched).toBeLessThanOrEqual(told);
  });
});
