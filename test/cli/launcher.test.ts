import { describe, expect, it, vi } from "vitest";
import { ancestorsOf, launcherOf, procStat, watchLauncher } from "../../src/cli/launcher.js";
import { launcherGoneAtStart } from "../../src/cli/launcher-gone.js";

/** A pause before checking that nothing was said: it can only make such a check pass too easily, never fail. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits for something to be said, for far longer than the 10 ms checks take on any machine. */
const saidSomething = (said: string[]) =>
  vi.waitUntil(() => said.length > 0, { timeout: 10_000, interval: 5 });

describe("watching the process that started the server (issue 25)", () => {
  it("reads a process's parent and start time from /proc, and knows none for a pid that does not exist", () => {
    const self = procStat("self");
    expect(self?.ppid).toBe(process.ppid);
    expect(self?.gone).toBe(false);
    expect(self?.startTime).toMatch(/^\d+$/);
    expect(procStat(2 ** 22 + 1)).toBeUndefined();
  });

  it("lists the launcher's processes from the parent up, init left out", () => {
    const chain = ancestorsOf(process.ppid);
    expect(chain[0]?.pid).toBe(process.ppid);
    expect(chain.map(({ pid }) => pid)).not.toContain(1);
  });

  it("watches nothing when the parent is init or outside the PID namespace (a container's PID 1)", () => {
    expect(watchLauncher(() => undefined, { ppid: () => 0 })).toBeUndefined();
    expect(watchLauncher(() => undefined, { ppid: () => 1 })).toBeUndefined();
  });

  it("says once that the launcher is gone when the parent changes (the server was reparented)", async () => {
    let parent = process.ppid;
    const said: string[] = [];
    const watch = watchLauncher((what) => said.push(what), { intervalMs: 10, ppid: () => parent });
    await pause(50);
    expect(said).toEqual([]);
    parent = 1;
    await saidSomething(said);
    await pause(50);
    expect(said).toEqual([`its parent process ${process.ppid} exited`]);
    watch?.stop();
  });

  it("stays quiet while the launcher lives, and stops watching when told", async () => {
    const said: string[] = [];
    const watch = watchLauncher((what) => said.push(what), { intervalMs: 10 });
    expect(watch).toBeDefined();
    await pause(60);
    watch?.stop();
    expect(said).toEqual([]);
  });

  it("takes the launcher once, so that one gone before the watch starts is still noticed", async () => {
    expect(launcherOf(() => 0)).toBeUndefined();
    const launcher = launcherOf();
    expect(launcher?.parent).toBe(process.ppid);
    // An ancestor that has exited since (no such pid now): the first check says so.
    const gone = { parent: process.ppid, ancestors: [{ pid: 2 ** 22 + 1, startTime: "1" }] };
    const said: string[] = [];
    const watch = watchLauncher((what) => said.push(what), { intervalMs: 10, launcher: gone });
    await saidSomething(said);
    await pause(50);
    watch?.stop();
    expect(said).toEqual([`the process ${2 ** 22 + 1} that started it exited`]);
  });
});

describe("a launcher already gone when the server starts (issue 47)", () => {
  /** Processes as /proc would show them: pid to parent and session. */
  const table =
    (rows: Record<number, [ppid: number, session: number]>) =>
    (pid: number): { ppid: number; session: number } | undefined => {
      const row = rows[pid];
      return row && { ppid: row[0], session: row[1] };
    };
  const direct = (self: number) => self;

  it("is said when the server was left to init, or to a subreaper, outside its session", () => {
    // `bash -c 'node dist/main.js & exit 0'`: the shell (and its session's leader, 10) gone or not, init has it.
    expect(launcherGoneAtStart(500, table({ 500: [1, 10], 1: [0, 0] }), direct)).toBe(
      "the process that started it had already exited (its parent is now process 1)",
    );
    // A desktop's `systemd --user` (a subreaper, leading its own session) adopts orphans.
    expect(launcherGoneAtStart(500, table({ 500: [300, 10], 300: [1, 300] }), direct)).toBe(
      "the process that started it had already exited (its parent is now process 300)",
    );
  });

  it("looks above npm: npx, npm exec and npm start run the bin through a shell, and wait on it", () => {
    const rows = table({ 500: [499, 10], 499: [498, 10], 498: [1, 10], 1: [0, 0] });
    expect(launcherGoneAtStart(500, rows, () => 498)).toBe(
      "the process that started npm had already exited (npm, process 498, now has process 1 as its parent)",
    );
    // npm started by a script that still runs: nothing to say, the watch follows the script.
    const living = table({ 500: [499, 10], 499: [498, 10], 498: [400, 10], 400: [10, 10] });
    expect(launcherGoneAtStart(500, living, () => 498)).toBeUndefined();
  });

  it("is not said of a server started on purpose with nothing above it", () => {
    // PID 1 of a container (`docker run`), or its parent outside the PID namespace (`docker exec`).
    expect(launcherGoneAtStart(1, table({ 1: [0, 0] }), direct)).toBeUndefined();
    expect(launcherGoneAtStart(7, table({ 7: [0, 0] }), direct)).toBeUndefined();
    // tini or Docker's --init as PID 1, or a container whose init is a shell: the server shares its session.
    expect(launcherGoneAtStart(7, table({ 7: [1, 1], 1: [0, 1] }), direct)).toBeUndefined();
    // A session of its own: systemd, dumb-init, setsid.
    expect(launcherGoneAtStart(500, table({ 500: [1, 500], 1: [0, 0] }), direct)).toBeUndefined();
    // Nothing readable (no /proc): nothing known, nothing said.
    expect(launcherGoneAtStart(500, table({}), direct)).toBeUndefined();
  });

  it("is not said of this test's own worker, whose launcher runs", () => {
    expect(launcherGoneAtStart()).toBeUndefined();
  });
});
