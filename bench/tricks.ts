import { SPEED_TRICKS, type SpeedTrick } from "../src/http/fast/index.js";
import { abArgs, printResults, runVariants, type Variant, writeReport } from "./ab.js";
import { buildThisTree } from "./targets.js";

/**
 * `npm run bench:tricks`: what each speed trick (src/http/fast) buys. Our server runs once with every trick and
 * once with each trick switched off (bench/servers/ours-tricks.mjs), in a paired A/B run (bench/ab.ts); the column
 * to read is the CPU a request costs with the trick off relative to all on.
 */
const { settings, values } = abArgs(
  { off: [SPEED_TRICKS.join(","), "the tricks to measure switched off, comma-separated"] },
  "npm run bench:tricks: what each speed trick buys, each switched off against all on (CPU per request).",
);
const measured = String(values.off)
  .split(",")
  .filter((name) => name !== "") as SpeedTrick[];
for (const name of measured)
  if (!SPEED_TRICKS.includes(name))
    throw new Error(`unknown trick ${name}; known: ${SPEED_TRICKS.join(", ")}`);

const SCRIPT = "bench/servers/ours-tricks.mjs";
const variants: Variant[] = [
  { name: "all on", script: SCRIPT, env: { BENCH_SPEED_TRICKS_OFF: "" } },
  ...measured.map((trick) => ({
    name: `${trick} off`,
    script: SCRIPT,
    env: { BENCH_SPEED_TRICKS_OFF: trick },
  })),
];

async function main(): Promise<void> {
  const started = performance.now();
  buildThisTree();
  const results = await runVariants(variants, settings);
  const { rounds, duration, connections } = settings;
  process.stdout.write(
    `\nSpeed tricks, ${rounds} rounds of ${duration} s, ${connections} connections (medians of the rounds)\n\n`,
  );
  printResults(results, "CPU vs all on");
  writeReport("tricks", { settings, results }, started);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:tricks failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
