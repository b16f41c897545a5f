import type { Page } from "playwright-core";
import { BENCH_CAMPAIGN, BENCH_EVENT, BENCH_KEYS } from "./fixtures.js";

/**
 * The dashboard's first paint over the benchmark project, as `npm run bench:dashboard` times it and the browser
 * tier's scale test checks it: the project gets members with an event each, then the page is opened until each
 * panel shows its first page.
 */

/** Members (each with one event) the project gets before the page opens. */
export const PAINT_MEMBERS = 45;

/** One element of each panel's first page: members, events, tiers and incentives, the journal. */
const PANELS = [
  "#members tbody tr",
  "#events .timeline li",
  "#loyalty [data-incentive]",
  "#requests .journal li",
];

/** Joins `PAINT_MEMBERS` customers to the benchmark campaign, each earning one event, over HTTP. */
export async function joinPaintMembers(url: string): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { ...BENCH_KEYS, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  };
  for (let i = 0; i < PAINT_MEMBERS; i++) {
    const source = `member-${i}@example.com`;
    await post(`/v1/loyalties/${BENCH_CAMPAIGN}/members`, {
      customer: { source_id: source, email: source, name: `Member ${i}` },
    });
    await post("/v1/events", {
      event: BENCH_EVENT,
      customer: { source_id: source },
      metadata: { plan: "pro" },
    });
  }
}

/**
 * Opens the dashboard on the benchmark project and answers the milliseconds until every panel shows its first page.
 * A renderer for the server's origin is made first: its start is the browser's, not the page's.
 */
export async function timeFirstPaint(page: Page, url: string, timeoutMs: number): Promise<number> {
  await page.goto(`${url}/__mock/health`);
  const started = performance.now();
  await page.goto(`${url}/__mock/ui/#bench`);
  await Promise.all(PANELS.map((selector) => page.waitForSelector(selector, { timeout: timeoutMs })));
  return performance.now() - started;
}
