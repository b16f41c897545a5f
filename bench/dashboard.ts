import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { abArgs, printResults, runVariants, type Variant, writeReport } from "./ab.js";
import { cpuTimeMs, ROOT } from "./targets.js";

/**
 * `npm run bench:dashboard`: what an open dashboard costs the six operations (issue 17: "the live feed must not
 * slow the six operations"). The same build twice in a paired A/B run (bench/ab.ts): once alone, once with the
 * dashboard open on the benchmark project in Debian's chromium, following the live feed and fetching its panels
 * as the load changes them. CPU per request is the server's: what the page makes the server do is counted in it.
 */
const { settings } = abArgs(
  {},
  "npm run bench:dashboard: the operations with and without the dashboard open in chromium.",
);
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

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM} (apt-get install chromium)`);
  const started = performance.now();
  execFileSync("npx", ["tsc", "-b", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
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
  writeReport("dashboard", { settings, results, browser: open }, started);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:dashboard failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
