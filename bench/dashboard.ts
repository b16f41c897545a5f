import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { abArgs, printResults, runVariants, type Variant, writeReport } from "./ab.js";
import { ok } from "./client.js";
import { joinPaintMembers, timeFirstPaint } from "./first-paint.js";
import { BENCH_KEYS, BENCH_LOCATION, writeBenchFixtures } from "./fixtures.js";
import { BENCH_SETTINGS, buildThisTree, cpuTimeMs, serverSettings, startProcess } from "./targets.js";

/**
 * `npm run bench:dashboard`: what an open dashboard costs the six operations (issue 17: "the live feed must not
 * slow the six operations"). The same build twice in a paired A/B run (bench/ab.ts): once alone, once with the
 * dashboard open on the benchmark project in Debian's chromium, following the live feed and fetching its panels
 * as the load changes them. CPU per request is the server's: what the page makes the server do is counted in it.
 *
 * Then the page's first paint over a project of a million cards (`--paint-cards`): the time from opening the page to
 * its members, events, tiers and journal each showing their first page, against the target of 2 s. A time target
 * is a benchmark's, never a test's: the browser tier (test/browser/scale.test.ts) checks that each panel shows
 * one page of rows over the million cards and prints the time it saw, on a machine doing whatever else it does.
 */
const { settings, values } = abArgs(
  {
    "paint-cards": ["1000000", "cards in the project the first paint is measured over (0: not measured)"],
    "paint-loads": ["5", "page loads measured for the first paint (the median is the figure)"],
  },
  "npm run bench:dashboard: the operations with and without the dashboard open in chromium, then the page's first paint over a million cards.",
);
/** The first paint's target: the four panels each showing their first page within this, at a million cards. */
const FIRST_PAINT_TARGET_MS = 2000;

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The chromium processes running now (the browser, its renderer, GPU and network processes), by /proc. */
function chromiumPids(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "chromium";
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function chromiumCpuMs(pids: number[]): Promise<number> {
  let total = 0;
  for (const pid of pids) total += (await cpuTimeMs(pid)) ?? 0;
  return total;
}

/** What the open page cost the machine besides the server: chromium's CPU time per second it was open. */
const browserCost: { seconds: number; cpuMs: number }[] = [];

async function openDashboard(url: string): Promise<() => Promise<void>> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  const page = await browser.newPage();
  await page.goto(`${url}/__mock/ui/#bench`);
  // The live feed is open once the page says so.
  await page.getByText("Live", { exact: false }).first().waitFor({ timeout: 30_000 });
  const pids = chromiumPids();
  const opened = performance.now();
  const before = await chromiumCpuMs(pids);
  return async () => {
    browserCost.push({
      seconds: (performance.now() - opened) / 1000,
      cpuMs: (await chromiumCpuMs(pids)) - before,
    });
    await browser.close();
  };
}

/** Times of loading the page until each panel shows its first page, over a project of `cards` cards. */
async function firstPaints(cards: number, loads: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-paint-"));
  const fixtures = writeBenchFixtures(join(dir, "fixtures"), { cards, tierStructures: 3, incentives: 40 });
  const server = await startProcess({
    script: "dist/main.js",
    env: serverSettings({ FIXTURES_DIR: fixtures, ...BENCH_SETTINGS }),
    probe: (url) => ok(`${url}/v1/locations/${BENCH_LOCATION}`, { headers: BENCH_KEYS }),
    timeoutMs: 600_000,
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  try {
    await joinPaintMembers(server.url);
    const times: number[] = [];
    for (let i = 0; i < loads; i++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      times.push(await timeFirstPaint(page, server.url, 60_000));
      process.stderr.write(`  first paint ${i + 1}/${loads}: ${times.at(-1)?.toFixed(0)} ms\n`);
      await page.close();
    }
    return times;
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM} (apt-get install chromium)`);
  const started = performance.now();
  buildThisTree();
  const script = "dist/main.js";
  const variants: Variant[] = [
    { name: "no page", script },
    { name: "dashboard open", script, beside: openDashboard },
  ];
  const results = await runVariants(variants, settings);
  const { rounds, duration, connections } = settings;
  process.stdout.write(
    `\nThe dashboard open or not, ${rounds} rounds of ${duration} s, ${connections} connections (medians of the rounds)\n\n`,
  );
  printResults(results, "CPU vs no page");
  const [open] = browserCost;
  if (open)
    process.stdout.write(
      `\nchromium (every process of it) used ${(open.cpuMs / 1000).toFixed(1)} s of CPU in the ${open.seconds.toFixed(0)} s the page was open: ${((100 * open.cpuMs) / 1000 / open.seconds).toFixed(0)}% of a core\n`,
    );
  const paintCards = Number(values["paint-cards"]);
  let paint: { cards: number; times_ms: number[]; median_ms: number; target_ms: number } | undefined;
  if (paintCards > 0) {
    const times = await firstPaints(paintCards, Number(values["paint-loads"]));
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    paint = { cards: paintCards, times_ms: times, median_ms: median, target_ms: FIRST_PAINT_TARGET_MS };
    process.stdout.write(
      `\nfirst paint over ${paintCards.toLocaleString("en")} cards (members, events, tiers and journal each showing their first page): median ${median.toFixed(0)} ms of ${times.length} loads (${sorted[0]?.toFixed(0)}-${sorted.at(-1)?.toFixed(0)} ms); target ${FIRST_PAINT_TARGET_MS} ms: ${median <= FIRST_PAINT_TARGET_MS ? "met" : "NOT met"}\n`,
    );
  }
  writeReport("dashboard", { settings, results, browser: open, first_paint: paint }, started);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:dashboard failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
