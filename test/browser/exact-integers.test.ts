/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, launch, type Served, seen, serve } from "./browser.js";

/**
 * Issue 39: a tier's min_value and max_value reach 2^63-1, and the page shows them as the project holds them. The
 * browser's JSON.parse would read 9223372036854775807 as 9223372036854775808 (ui/json.js).
 */
const KEYS = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };
const STRUCTURE = "lts_d0000000000000001";
const INT64_MAX = "9223372036854775807";
const BELOW = "9223372036854775806";
const VENDOR = "/__mock/ui/vendor/lossless-json/";

let server: Served;
let browser: Browser;
let page: Page;
const fetched: string[] = [];

beforeAll(async () => {
  server = await serve();
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1440, height: 1280 } });
  page.on("pageerror", (error) => {
    throw error;
  });
  page.on("request", (request) => fetched.push(new URL(request.url()).pathname));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the dashboard with 64-bit integers past 2^53", () => {
  it("loads no JSON reader beyond JSON.parse while no answer holds such an integer", async () => {
    await page.goto(`${server.url}/__mock/ui/#demo`);
    await seen(page, `[data-structure="${STRUCTURE}"] [data-tier="Silver"]`, "1,000–4,999", 10_000);
    expect(fetched.filter((path) => path.startsWith(VENDOR))).toEqual([]);
  });

  it("shows a tier ranging to 9223372036854775807 exactly, on the axis, in its gap and in the journal", async () => {
    const token = await call(server.url, "POST", "/v1/oauth/token", {
      headers: KEYS,
      form: "grant_type=client_credentials&scope=api",
    });
    // Written as text: JSON.stringify, like JSON.parse, knows no integer past 2^53.
    const body = `{"name":"Top","qualification_rules":{"type":"POINTS","min_value":${BELOW},"max_value":${INT64_MAX}}}`;
    const res = await fetch(`${server.url}/v2/loyalties/tier-structures/${STRUCTURE}/tiers`, {
      method: "POST",
      headers: {
        ...KEYS,
        Authorization: `Bearer ${token.body.access_token}`,
        "Content-Type": "application/json",
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`"max_value":${INT64_MAX}`);

    const axis = `[data-structure="${STRUCTURE}"]`;
    await seen(
      page,
      `${axis} [data-tier="Top"]`,
      "9,223,372,036,854,775,806–9,223,372,036,854,775,807",
      10_000,
    );
    // The stretch between Silver and Top: its last value is min_value - 1, computed as a bigint.
    await seen(page, `${axis} .gap`, "gap 5000–9223372036854775805", 10_000);
    expect(fetched.filter((path) => path.startsWith(VENDOR))).toContain(`${VENDOR}index.js`);

    await seen(
      page,
      "#requests .journal li:first-child summary",
      `POST /v2/loyalties/tier-structures/`,
      10_000,
    );
    await page.click("#requests .journal li:first-child summary");
    await seen(page, "#requests .journal li:first-child pre", `"max_value": ${INT64_MAX}`, 10_000);
    const shown = await page.$$eval("#requests .journal li:first-child pre", (pres) =>
      pres.map((pre) => (pre as HTMLElement).innerText),
    );
    // The request as the journal keeps it, and the answer: both exact.
    expect(shown).toHaveLength(2);
    for (const text of shown) {
      expect(text).toContain(`"min_value": ${BELOW}`);
      expect(text).toContain(`"max_value": ${INT64_MAX}`);
    }
  });
});
