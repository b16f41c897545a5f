import { parseArgs } from "node:util";
import { collectGarbage } from "../src/platform/collect-garbage.js";
import { startServer } from "../src/server.js";
import { soak } from "./soak-traffic.js";

/**
 * `npm run soak`: hundreds of thousands of mixed requests against an in-process server, bounded in time, with the
 * heap measured after a full collection every 10 000 requests. Journals are rings, expired tokens are swept at the
 * cap, request ids are never kept: after warming up (journal full, token cap reached) the heap must stay flat.
 * Exits 1 when it grows by more than --max-growth-mb between the first and the last samples after warm-up.
 */
const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "300000" },
    seconds: { type: "string", default: "240" },
    concurrency: { type: "string", default: "32" },
    "max-growth-mb": { type: "string", default: "16" },
  },
});

const gc = collectGarbage();
// Far more calls a minute than any plan allows: the limiter still counts each (and sends its headers), never refuses.
const server = await startServer({ port: 0, rateLimitPerMinute: 1_000_000_000 });
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const samples: { sent: number; heap: number }[] = [];
const demo = () => server.registry.get("demo");

const result = await soak({
  url: server.url,
  requests: Number(args.requests),
  concurrency: Number(args.concurrency),
  maxMs: Number(args.seconds) * 1000,
  sampleEvery: 10_000,
  onSample: (sent) => {
    gc();
    const heap = process.memoryUsage().heapUsed;
    samples.push({ sent, heap });
    console.log(
      `${String(sent).padStart(7)} requests  heap ${String(mb(heap)).padStart(6)} MB  journal ${demo().journal.size}  tokens ${demo().tokens.size}`,
    );
  },
});
await server.close();

// Samples alternate between just after a reset (every 20 000) and a full journal: compare like with like, from
// the third sample on (the first ones fill the journal and reach the token cap).
const settled = samples.slice(2);
const statuses = Object.fromEntries([...result.statuses].sort((a, b) => a[0] - b[0]));
console.log(
  `\n${result.sent} requests in ${(result.ms / 1000).toFixed(1)} s; statuses ${JSON.stringify(statuses)}`,
);
const phases = [0, 1].map((phase) => settled.filter((sample) => (sample.sent / 10_000) % 2 === phase));
const judged = phases.filter((phase) => phase.length >= 2);
if (judged.length === 0) {
  console.log("too few samples to judge; send more requests or allow more seconds");
  process.exit(1);
}
const limit = Number(args["max-growth-mb"]);
let growth = Number.NEGATIVE_INFINITY;
for (const phase of judged) {
  const first = phase[0] as { sent: number; heap: number };
  const last = phase.at(-1) as { sent: number; heap: number };
  growth = Math.max(growth, mb(last.heap - first.heap));
  console.log(
    `heap after warm-up: ${mb(first.heap)} MB at ${first.sent} requests, ${mb(last.heap)} MB at ${last.sent}: ${mb(last.heap - first.heap)} MB`,
  );
}
console.log(`largest growth ${growth} MB (limit ${limit} MB)`);
if ((result.statuses.get(500) ?? 0) > 0) {
  console.log("FAIL: some requests were answered 500");
  process.exit(1);
}
if (growth > limit) {
  console.log("FAIL: the heap keeps growing");
  process.exit(1);
}
console.log("OK: memory stays flat");
