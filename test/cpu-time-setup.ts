import { readFileSync } from "node:fs";
import { afterEach, beforeAll } from "vitest";

/**
 * Runs before each test file (vitest's setupFiles): each test's meta gets the CPU time its worker spent on the file
 * since the previous test ended (or since the file began), the test's own hooks and the file's or describe's
 * `beforeAll` included, and the processes it started and waited for. vitest's JSON report carries the meta, and
 * `scripts/fast-tier-budget.ts` adds it up in CI. CPU rather than time: on a machine shared with other work a
 * test takes longer, but spends about the same CPU. A worker is a process of its own (the fork pool), so the
 * process's CPU is the file's.
 */
declare module "vitest" {
  interface TaskMeta {
    /** Milliseconds of CPU (user and system) since the file's previous test ended, child processes included. */
    cpuMs?: number;
  }
}

/**
 * CPU of the child processes this one has waited for, in ms, from /proc (Linux's clock ticks are 100 a second in
 * /proc whatever the kernel's own rate); 0 where there is no /proc. A test that spawns a process shows its cost.
 */
function childrenMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name (which may hold spaces), from the third: cutime and cstime are the 16th, 17th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

const nowMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000 + childrenMs();
};

let since = nowMs();

beforeAll(() => {
  since = nowMs();
});

// Registered before the file's own hooks, so it runs after them (vitest runs after-hooks in reverse order).
afterEach(({ task }) => {
  const now = nowMs();
  task.meta.cpuMs = Math.round(now - since);
  since = now;
});
