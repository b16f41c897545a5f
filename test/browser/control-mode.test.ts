import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { launch, type Served, seen, serve } from "./browser.js";

/** Issue 29: the dashboard's header says what /__mock/health says of the control API. */
let server: Served;
let browser: Browser;

beforeAll(async () => {
  server = await serve();
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the dashboard's header", () => {
  it("says the control API is open when the server has no admin token", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/__mock/ui/#demo`);
    await seen(page, "#control-mode", "Control API: open (no admin token)", 10_000);
    await page.close();
  });
});
