// Loaded into the benchmarked server (`NODE_OPTIONS=--import`, by bench/profile.ts): a CPU profile of its whole
// life, sampled every 250 us, written as CPU_PROFILE_OUT (Chrome DevTools' .cpuprofile format) when the process
// exits. Node's own --cpu-prof cannot be given through NODE_OPTIONS, and the benchmark starts every server the same
// way, so the profiler is started from inside instead.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

const session = new Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.setSamplingInterval", { interval: 250 });
session.post("Profiler.start");
process.on("exit", () => {
  // A session on the main thread answers synchronously, so the profile is written before the process ends.
  session.post("Profiler.stop", (error, result) => {
    const out = process.env.CPU_PROFILE_OUT;
    if (!error && out) writeFileSync(out, JSON.stringify(result.profile));
  });
});
