import { describe, expect, it, vi } from "vitest";
import { ancestorsOf, launcherOf, procStat, watchLauncher } from "../../src/cli/launcher.js";
import { launcherGoneAtStart, type ProcessInfo } from "../../src/cli/launcher-gone.js";

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
  /** Processes as /proc would show them: pid to parent, session, start (1/100 s ticks) and program name. */
  type Rows = Record<number, readonly [ppid: number, session: number, start?: number, name?: string]>;
  const table =
    (rows: Rows) =>
    (pid: number): ProcessInfo | undefined => {
      const row = rows[pid];
      return row && { ppid: row[0], session: row[1], start: row[2] ?? 1000, name: row[3] ?? "node" };
    };
  const INIT = [0, 0, 0, "init"] as const;

  it("is said when the server was left to init, or to a subreaper, outside its session", () => {
    // `bash -c 'node dist/main.js & exit 0'`: the shell gone, init has the server.
    expect(launcherGoneAtStart(500, table({ 500: [1, 10], 1: INIT }))).toBe(
      "the process that started it had already exited (its parent is now process 1)",
    );
    // A desktop's `systemd --user` (a subreaper, leading its own session) adopts orphans.
    expect(launcherGoneAtStart(500, table({ 500: [300, 10], 300: [1, 300, 5, "systemd"], 1: INIT }))).toBe(
      "the process that started it had already exited (its parent is now process 300)",
    );
  });

  it("looks above npm, its shell and a subshell, which only run the server", () => {
    // `bash -c 'npx loyalty-mock & exit 0'`: npm, then its shell, then node.
    const npx: Rows = {
      500: [499, 10, 1000],
      499: [498, 10, 990, "sh"],
      498: [1, 10, 950, "npm"],
      1: INIT,
    };
    expect(launcherGoneAtStart(500, table(npx))).toBe(
      "the process that started npm had already exited (npm, process 498, which runs it, now has process 1 as its parent)",
    );
    // `bash -c '(cd app && npx loyalty-mock) & exit 0'`: the subshell was left.
    const sub: Rows = { ...npx, 498: [497, 10, 950, "npm"], 497: [1, 10, 940, "bash"] };
    expect(launcherGoneAtStart(500, table(sub))).toMatch(/^the process that started bash had already exited/);
    // npm started by a script that still runs, or a terminal's shell: nothing to say, the watch follows them.
    const script: Rows = {
      ...npx,
      498: [400, 10, 950, "npm"],
      400: [10, 10, 900, "bash"],
      10: [1, 10, 5, "bash"],
    };
    expect(launcherGoneAtStart(500, table(script))).toBeUndefined();
  });

  it("climbs no shell that ran for more than a minute before the server: an agent's, not this start's", () => {
    // An agent loop left to init long ago (nohup, no setsid), starting the server through a job shell.
    const agent: Rows = {
      500: [499, 10, 90_000],
      499: [498, 10, 89_990, "bash"],
      498: [1, 10, 100, "bash"],
      1: INIT,
    };
    expect(launcherGoneAtStart(500, table(agent))).toBeUndefined();
  });

  it("is not said of a server started on purpose with nothing above it", () => {
    // PID 1 of a container (`docker run`), or its parent outside the PID namespace (`docker exec`).
    expect(launcherGoneAtStart(1, table({ 1: [0, 0] }))).toBeUndefined();
    expect(launcherGoneAtStart(7, table({ 7: [0, 0] }))).toBeUndefined();
    // tini or Docker's --init as PID 1, or a container whose init is a shell: the server shares its session.
    expect(launcherGoneAtStart(7, table({ 7: [1, 1], 1: [0, 1, 0, "tini"] }))).toBeUndefined();
    expect(
      launcherGoneAtStart(7, table({ 7: [6, 1], 6: [1, 1, 990, "sh"], 1: [0, 1, 0, "sh"] })),
    ).toBeUndefined();
    // A session of its own: systemd, dumb-init, setsid; the shell above it, left or not, is not climbed to.
    expect(launcherGoneAtStart(500, table({ 500: [1, 500], 1: INIT }))).toBeUndefined();
    const setsid: Rows = { 500: [499, 500], 499: [1, 10, 990, "bash"], 1: INIT };
    expect(launcherGoneAtStart(500, table(setsid))).toBeUndefined();
    // Nothing readable (no /proc): nothing known, nothing said.
    expect(launcherGoneAtStart(500, table({}))).toBeUndefined();
  });

  it("is not said of this test's own worker, whose launcher runs", () => {
    expect(launcherGoneAtStart()).toBeUndefined();
  });
});
