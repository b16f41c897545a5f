import { readFile } from "node:fs/promises";
import { cpuTimeMs } from "./targets.js";

/**
 * The CPU the rest of the machine takes while a measurement runs: a shared machine (other test suites, builds)
 * slows our server's requests down and, since fewer requests then arrive per turn of its event loop, raises even
 * its CPU time per request. So the tricks benchmark waits for a quiet moment before each measurement and repeats
 * one during which the rest of the machine was busy. Linux only (/proc); elsewhere the machine counts as quiet.
 */

/** CPU time the whole machine has spent busy so far, all cores, in milliseconds (from /proc/stat). */
async function machineBusyMs(): Promise<number | undefined> {
  const stat = await readFile("/proc/stat", "utf8").catch(() => undefined);
  const fields = stat?.split("\n", 1)[0]?.trim().split(/\s+/).slice(1).map(Number);
  if (!fields || fields.length < 8) return undefined;
  // user nice system idle iowait irq softirq steal: everything but idle and iowait.
  const [user, nice, system, , , irq, softirq, steal] = fields as number[];
  return (
    (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1000) / 100
  );
}

function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** A running count of the CPU the machine spends outside this process and the server `pid`. */
export async function othersCpu(pid: number): Promise<() => Promise<number | undefined>> {
  const start = {
    machine: await machineBusyMs(),
    server: await cpuTimeMs(pid),
    own: ownCpuMs(),
    at: Date.now(),
  };
  return async () => {
    const machine = await machineBusyMs();
    const server = await cpuTimeMs(pid);
    if (
      machine === undefined ||
      server === undefined ||
      start.machine === undefined ||
      start.server === undefined
    )
      return undefined;
    const others = machine - start.machine - (server - start.server) - (ownCpuMs() - start.own);
    // As a share of one core over the time since the start.
    return Math.max(0, others) / Math.max(1, Date.now() - start.at);
  };
}

/**
 * Waits until, over one second, the rest of the machine takes less than `share` of a core; gives up after
 * `maxWaitMs`. Answers how long it waited.
 */
export async function waitForQuiet(pid: number, share: number, maxWaitMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < maxWaitMs) {
    const others = await othersCpu(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const used = await others();
    if (used === undefined || used < share) break;
  }
  return Date.now() - started;
}
