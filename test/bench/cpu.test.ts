import { describe, expect, it } from "vitest";
import { cpuTimeMs } from "../../bench/targets.js";

describe("the benchmark's CPU time per process", () => {
  it.runIf(process.platform === "linux")(
    "reads /proc as the kernel counts it, like process.cpuUsage",
    async () => {
      const before = await cpuTimeMs(process.pid);
      const usage = process.cpuUsage();
      // Work until the process has used 200 ms of CPU, whatever else the machine is doing.
      let spin = 0;
      while ((process.cpuUsage(usage).user + process.cpuUsage(usage).system) / 1000 < 200)
        spin += Math.sqrt(spin + 1);
      const used = (process.cpuUsage(usage).user + process.cpuUsage(usage).system) / 1000;
      const after = await cpuTimeMs(process.pid);
      expect(spin).toBeGreaterThan(0);
      if (before === undefined || after === undefined) throw new Error("no /proc reading");
      // /proc counts in 10 ms ticks, and vitest's own threads add a little.
      expect(after - before).toBeGreaterThanOrEqual(used - 30);
      expect(after - before).toBeLessThan(used + 200);
    },
  );

  it("is undefined for a process that does not exist", async () => {
    expect(await cpuTimeMs(2 ** 22 + 12345)).toBeUndefined();
  });
});
