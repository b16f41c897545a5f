// Loaded into the benchmarked server (`node --import`): how long its event loop was held, read from outside.
// Each SIGUSR2 writes the longest delay since the last one (and the 99th percentile), and the longest garbage
// collection pause meanwhile, to LOOP_DELAY_OUT, then starts over. A timer every 10 ms that fires late by X ms
// means the loop was held for about X ms: the server's own work, a collection, or a wait for a core on a busy
// machine (the bench prints the load average beside it).
import { writeFileSync } from "node:fs";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
let gcMaxMs = 0;
// What the longest pause was: a collection forced by the server (the memory budget's), or V8's own of a kind.
let gcMaxKind = "";
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks",
};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.duration <= gcMaxMs) continue;
    gcMaxMs = entry.duration;
    const { kind, flags } = entry.detail ?? {};
    gcMaxKind = flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED ? "forced" : (KINDS[kind] ?? "");
  }
}).observe({ entryTypes: ["gc"] });
process.on("SIGUSR2", () => {
  const out = process.env.LOOP_DELAY_OUT;
  if (out)
    writeFileSync(
      out,
      JSON.stringify({
        maxMs: histogram.max / 1e6,
        p99Ms: histogram.percentile(99) / 1e6,
        gcMaxMs,
        gcMaxKind,
      }),
    );
  histogram.reset();
  gcMaxMs = 0;
  gcMaxKind = "";
});
