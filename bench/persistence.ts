import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchLog, type EngineResult } from "./persistence-engines.js";
import { benchServer, type ServerResult } from "./persistence-server.js";
import { benchSqlite, sqlite } from "./persistence-sqlite.js";
import { ROOT } from "./targets.js";

/**
 * `npm run bench:persistence [-- --seconds 5 --cards 1000000 --skip-engines --skip-server]`: the change log against SQLite
 * (better-sqlite3, when installed: `npm install --no-save better-sqlite3`) on the same workload at 1k and at
 * `--cards` cards, then the targets on the real server at both sizes. README "Persistence: how it was
 * chosen" has the figures of a run.
 */
function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const seconds = option("seconds", 5);
const big = option("cards", 1_000_000);
const sizes = [1000, big];
const round = (n: number) => Math.round(n * 10) / 10;

const engines: EngineResult[] = [];
if (!sqlite()) process.stderr.write("better-sqlite3 is not installed: the SQLite rows are left out\n");
for (const cards of process.argv.includes("--skip-engines") ? [] : sizes) {
  process.stderr.write(`engines: ${cards} cards\n`);
  engines.push(await benchLog(cards, seconds));
  const result = await benchSqlite(cards, seconds);
  if (result) engines.push(result);
}
console.log("\nEngines (in process, 10 writers, one card per write, durable before the next)\n");
console.table(
  engines.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "number" ? round(v) : v])),
  ),
);

const servers: ServerResult[] = [];
if (!process.argv.includes("--skip-server")) {
  execFileSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" });
  for (const cards of sizes) {
    process.stderr.write(`server: ${cards} cards\n`);
    servers.push(await benchServer(cards, seconds));
  }
  console.log("\nThe server (node dist/main.js, STATE_SYNC=always, 10 connections)\n");
  console.table(
    servers.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "number" ? round(v) : v])),
    ),
  );
  const [small, large] = servers;
  if (small && large)
    console.log(
      `writes/s ratio ${large.cards}/${small.cards}: ${round(large.writesPerSecond / small.writesPerSecond)}`,
    );
}

const out = join(ROOT, "bench", "results");
mkdirSync(out, { recursive: true });
const file = join(out, `persistence-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(file, JSON.stringify({ seconds, engines, servers }, null, 2));
console.log(`\nwritten to ${file}`);
