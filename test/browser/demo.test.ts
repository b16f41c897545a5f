/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import axe from "axe-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process.js";
import { call, launch, type Served, seen, serve } from "./browser.js";

/**
 * The dashboard made for demos (issue 35), in Chromium: the audience views at projector sizes in both type sizes,
 * axe-core on every view, names beside events, the charts following the API's numbers after a scenario plays
 * (the Play button, and `loyalty-mock play --speed 10`), and "Reset demo" restoring a snapshot. The demo guide's
 * pictures are taken by stage.test.ts, the whole demo scripted.
 */

const VIEWS = ["overview", "customer", "activity", "data"] as const;
const SIZES = [
  [1280, 720],
  [1366, 768],
  [1920, 1080],
] as const;

let server: Served;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await serve();
  browser = await launch();
  // axe-core is injected as a script of the page: the page's own CSP (this server's files only) would refuse it.
  context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 720 } });
  page = await context.newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const api = (method: string, path: string, json?: unknown) =>
  call(server.url, method, path, json === undefined ? {} : { json });

async function open(view: string, large = false): Promise<void> {
  // A new document each time: the same address with its fragment would only scroll the page.
  await page.goto("about:blank");
  await page.goto(`${server.url}/__mock/ui/?view=${view}#demo`);
  await page.evaluate((on) => {
    localStorage.setItem("loyalty-mock-large-type", on ? "1" : "");
    document.documentElement.classList.toggle("large", on);
  }, large);
  await seen(page, "#feed-status", "Live", 10_000);
  const ready: Record<string, string> = {
    overview: "#stat-members",
    customer: "#customer-name",
    activity: "#activity li",
    data: "#members tbody tr",
  };
  await page.waitForSelector(ready[view] as string, { timeout: 10_000 });
}

/** Page overflow, and each table wider than the panel it is in (by the pixels it sticks out). */
async function overflows(): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`page: ${root.scrollWidth} > ${root.clientWidth}`);
    for (const table of document.querySelectorAll("table")) {
      if (!(table as HTMLElement).offsetParent) continue;
      const panel = table.closest(".panel, figure") as HTMLElement | null;
      if (!panel) continue;
      const over = table.getBoundingClientRect().right - panel.getBoundingClientRect().right;
      if (over > 1) found.push(`a table in #${panel.id || panel.className} by ${Math.round(over)} px`);
    }
    return found;
  });
}

async function chartNumbers(id: string): Promise<number[][]> {
  return page.$$eval(`#${id} table tbody tr`, (rows) =>
    rows.map((row) => [...row.querySelectorAll("td")].map((cell) => Number(cell.getAttribute("data-value")))),
  );
}

/** What Chart.js drew: each dataset's numbers, read from the chart on the canvas. */
async function drawn(id: string): Promise<number[][]> {
  return page.$eval(`#${id}-canvas`, (canvas) => {
    const chart = (
      window as unknown as { Chart: { getChart(c: unknown): { data: { datasets: { data: number[] }[] } } } }
    ).Chart.getChart(canvas);
    return chart.data.datasets.map((dataset) => [...dataset.data]);
  });
}

describe("the audience views", () => {
  it("save the demo's starting point through the page: Save snapshot", async () => {
    await open("overview");
    await page.fill("#snapshot-name", "start");
    await page.click("#save-snapshot");
    await seen(page, "#snapshot-pick", "start", 10_000);
    const list = await api("GET", "/__mock/projects/demo/snapshots");
    expect(list.body.snapshots.map((s: { name: string }) => s.name)).toEqual(["start"]);
  });

  it("the Play button plays a scenario; the overview's charts follow the API's numbers", async () => {
    await open("overview");
    const before = await chartNumbers("points-chart");
    await page.selectOption("#scenario-pick", "first-month");
    await page.selectOption("#play-speed", "100");
    await page.click("#play");
    await seen(page, "#play-status", 'Played "A customer\'s first month": all 21 steps', 15_000);
    const overview = (await api("GET", "/__mock/projects/demo/overview")).body;
    await seen(page, "#stat-members", overview.members.toLocaleString("en"), 10_000);
    const series = overview.points_over_time as { total: number; earned: number }[];
    // The chart has caught up with the answer when it ends on its total and has as many buckets: the play's last
    // steps move the clock, which adds buckets without changing the total.
    await page.waitForFunction(
      ({ total, buckets }) => {
        const rows = document.querySelectorAll("#points-chart tbody tr");
        const cells = [...document.querySelectorAll("#points-chart tbody tr:last-child td")];
        return rows.length === buckets && cells[0]?.getAttribute("data-value") === String(total);
      },
      { total: overview.points_issued, buckets: series.length },
      { timeout: 10_000 },
    );
    const numbers = await chartNumbers("points-chart");
    expect(numbers).toEqual(series.map((bucket) => [bucket.total, bucket.earned]));
    expect(await drawn("points-chart")).toEqual([series.map((b) => b.total), series.map((b) => b.earned)]);
    expect(numbers).not.toEqual(before);
    const demoTiers = overview.tier_distribution.find(
      (s: { structure_id: string }) => s.structure_id === "lts_d0000000000000001",
    );
    expect(await chartNumbers("tiers-lts_d0000000000000001")).toEqual(
      [...demoTiers.tiers.map((t: { members: number }) => t.members), demoTiers.no_tier].map((n: number) => [
        n,
      ]),
    );
    // The audience sees the new tier the scenario created (in the chart's numbers, closed until opened).
    await page.waitForFunction(
      () => document.querySelector("#tiers-lts_d0000000000000001 table")?.textContent?.includes("Gold"),
      null,
      { timeout: 10_000 },
    );
  });

  it("live activity: sentences with people's names, newest first, failures plainly", async () => {
    await open("activity");
    await seen(page, "#activity li:first-child", "Incentive 50 bonus points (draft) was deleted", 10_000);
    // Event names read as words; the moment she reaches a tier is a line of its own (issue 45).
    await seen(page, "#activity", "Zofia Lis earned 250 points for loyalty bonus", 10_000);
    await seen(page, "#activity li.moment", "Zofia Lis reached Silver", 10_000);
    await seen(page, "#activity", /Zofia Lis joined Demo Loyalty Program with card DEMO-/, 10_000);
    // A failure is said plainly, in red, with the service's own words.
    const refused = await call(server.url, "POST", "/v1/loyalties/camp_demo_loyalty/members", {
      headers: { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" },
      json: { customer: { source_id: "zofia.lis@example.com" } },
    });
    expect(refused.status).toBe(400);
    await seen(
      page,
      "#activity li.failed:first-child",
      "Failed: Zofia Lis could not join Demo Loyalty Program: 400, Customer already joined program",
      10_000,
    );
    // Playing it again plays it again, its customer named afresh (issue 45). The status line said the first play
    // was done already: the new play is told by its id.
    const [before] = (await api("GET", "/__mock/projects/demo/plays")).body.plays;
    await page.selectOption("#scenario-pick", "first-month");
    await page.selectOption("#play-speed", "100");
    await page.click("#play");
    await page.waitForFunction(
      async (id) => {
        const answer = await fetch("/__mock/projects/demo/plays").then((res) => res.json());
        const [last] = answer.plays;
        return last !== undefined && last.id > id && last.status === "done";
      },
      before.id,
      { timeout: 15_000, polling: 100 },
    );
    await seen(page, "#play-status", 'Played "A customer\'s first month": all 21 steps', 10_000);
    const again = await api("GET", "/__mock/projects/demo/customers?source_id=zofia.lis%2B2@example.com");
    expect(again.body.customers.map((c: { name: string }) => c.name)).toEqual(["Zofia Lis"]);
  });

  it("the data view names the customer beside each event, the id secondary", async () => {
    await open("data");
    await seen(page, "#events .timeline li:first-child", /loyalty_bonus by Zofia Lis cust_\w+/, 10_000);
    const title = await page.$eval("#events .timeline li:first-child .id", (el) => el.getAttribute("title"));
    expect(title).toMatch(/^cust_/);
  });

  it("the customer view: her card, progress to the next tier, balance over time, her timeline", async () => {
    await open("customer");
    await page.fill("#customer-search", "zofia.lis@example.com");
    await page.click("#customer form button");
    await seen(page, "#customer-name", "Zofia Lis", 10_000);
    const zofia = (await api("GET", "/__mock/projects/demo/customers?source_id=zofia.lis@example.com")).body
      .customers[0];
    const story = (await api("GET", `/__mock/projects/demo/customers/${zofia.id}/story`)).body;
    const card = story.cards[0];
    await seen(page, `[data-card="${card.code}"] .points`, card.points.toLocaleString("en"), 10_000);
    // Her tier on the card, and where she stands as a ladder, not a bar that empties (issue 45).
    await seen(page, `[data-card="${card.code}"] [data-structure="lts_d0000000000000001"]`, "Silver", 10_000);
    await seen(page, ".progress-list", "Demo Tiers: Silver, 3,900 points to Gold", 10_000);
    const ladder = await page.$$eval(".ladder .rung", (rungs) =>
      rungs.map((rung) => [
        rung.getAttribute("data-tier"),
        rung.className,
        rung.getAttribute("aria-current"),
      ]),
    );
    expect(ladder).toEqual([
      ["Bronze", "rung reached", null],
      ["Silver", "rung current", "step"],
      ["Gold", "rung", null],
    ]);
    expect((await chartNumbers("balance-chart")).map(([balance]) => balance)).toEqual(
      card.balance_over_time.map((b: { balance: number }) => b.balance),
    );
    await seen(page, ".timeline", "Earned 100 points for user subscribed", 10_000);
    await seen(page, ".timeline li.tier", "Zofia Lis reached Silver", 10_000);
  });

  it("Reset demo restores the chosen snapshot, and the charts go back with it", async () => {
    const saved = (await api("GET", "/__mock/projects/demo/snapshots")).body.snapshots[0];
    await open("overview");
    await page.selectOption("#snapshot-pick", "start");
    await page.click("#reset-demo");
    await seen(page, "#feed-status", "Demo reset to snapshot start.", 10_000);
    const overview = (await api("GET", "/__mock/projects/demo/overview")).body;
    expect(overview.now.slice(0, 16)).toBe(saved.clock.now.slice(0, 16));
    expect(overview.customers).toBe(saved.counts.customers);
    await seen(page, "#stat-customers", String(saved.counts.customers), 10_000);
    await page.waitForFunction(
      (total) =>
        document.querySelector("#points-chart tbody tr:last-child td")?.getAttribute("data-value") ===
        String(total),
      overview.points_issued,
      { timeout: 10_000 },
    );
  });

  it("loyalty-mock play --speed 10 against the default fixtures moves the overview's charts", async () => {
    await open("overview");
    const points = await drawn("points-chart");
    const tiers = await drawn("tiers-lts_d0000000000000001");
    const played = await promisify(execFile)(
      process.execPath,
      [join(ROOT, "dist", "main.js"), "play", "busy-saturday", "--speed", "10", "--url", server.url],
      { timeout: 60_000 },
    );
    expect(played.stdout).toMatch(/Done: 174 steps played\.\n$/);
    const overview = (await api("GET", "/__mock/projects/demo/overview")).body;
    await seen(page, "#stat-members", overview.members.toLocaleString("en"), 10_000);
    await page.waitForFunction(
      (total) =>
        document.querySelector("#points-chart tbody tr:last-child td")?.getAttribute("data-value") ===
        String(total),
      overview.points_issued,
      { timeout: 10_000 },
    );
    expect(await drawn("points-chart")).not.toEqual(points);
    expect(await drawn("tiers-lts_d0000000000000001")).not.toEqual(tiers);
    expect((await drawn("points-chart"))[0]?.at(-1)).toBe(overview.points_issued);
  });
});

describe("every view on a projector", () => {
  for (const [width, height] of SIZES)
    for (const large of [false, true])
      it(`${width}x${height}, ${large ? "large" : "normal"} type: no horizontal page overflow, no table wider than its panel`, async () => {
        await page.setViewportSize({ width, height });
        for (const view of VIEWS) {
          await open(view, large);
          // The chart's numbers open, as a reader opening them would see them.
          await page.$$eval("details.chart-numbers", (all) => {
            for (const d of all) (d as HTMLDetailsElement).open = true;
          });
          expect(await overflows(), `${view}`).toEqual([]);
        }
      });

  it("axe-core finds no serious or critical violation on any view, in either type size", async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    for (const large of [false, true])
      for (const view of VIEWS) {
        await open(view, large);
        await page.addScriptTag({ content: axe.source });
        const violations = await page.evaluate(async () => {
          const axe = (
            window as unknown as {
              axe: {
                run(): Promise<{
                  violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
                }>;
              };
            }
          ).axe;
          const result = await axe.run();
          return result.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        });
        expect(violations, `${view}${large ? ", large type" : ""}`).toEqual([]);
      }
  });
});
