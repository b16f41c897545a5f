/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { build, killGroup, type Started, startBuilt } from "../helpers/process.js";

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it when missing), or the one CHROMIUM_PATH names. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`browser tests: no chromium at ${CHROMIUM} (apt-get install chromium)`);
  // As root (CI containers) chromium refuses to start with its sandbox.
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}

export interface Served {
  url: string;
  close(): Promise<void>;
}

/**
 * The built server as `npm start` runs it (dist/main.js, serving ui/ beside dist/), in a process of its own on
 * loopback: in this process it would share its event loop with the browser's driver, and time each other.
 */
export async function serve(env: Record<string, string> = {}, timeoutMs = 30_000): Promise<Served> {
  build();
  const { server, base } = await startBuilt({ LOYALTY_MOCK_LOG_LEVEL: "silent", ...env }, timeoutMs);
  return { url: base, close: () => stop(server) };
}

async function stop(server: Started): Promise<void> {
  killGroup(server);
  await server.exited;
}

/**
 * Calls the server over HTTP as an application would; answers the status and parsed body.
 */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; json?: unknown; form?: string } = {},
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer, read as the API documents it (as supertest's body)
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = options.form;
  }
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/**
 * Waits (at most `ms`) for the page to show `text` inside `selector`; the text it shows otherwise, on failure. The
 * wait ends as soon as the text shows, so its limit is generous: a guard against a page that never shows it, at
 * least ten times what showing it takes on a busy machine, never a bound on how fast it shows (a bench's job).
 */
export async function seen(page: Page, selector: string, text: string | RegExp, ms = 10_000): Promise<void> {
  const pattern = typeof text === "string" ? text : text.source;
  const flags = typeof text === "string" ? "" : text.flags;
  try {
    await page.waitForFunction(
      ([sel, source, f, literal]) => {
        const shown = [...document.querySelectorAll(sel as string)]
          .map((e) => (e as HTMLElement).innerText)
          .join("\n");
        return literal
          ? shown.includes(source as string)
          : new RegExp(source as string, f as string).test(shown);
      },
      [selector, pattern, flags, typeof text === "string"],
      { timeout: ms, polling: 25 },
    );
  } catch (error) {
    const shown = await page.$$eval(selector, (els) =>
      els.map((e) => (e as HTMLElement).innerText).join("\n"),
    );
    throw new Error(
      `${selector} did not show ${String(text)} within ${ms} ms; it shows: ${shown.slice(0, 500)}`,
      {
        cause: error,
      },
    );
  }
}
