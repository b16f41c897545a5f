import { describe, expect, it, vi } from "vitest";
import { ancestorsOf, launcherOf, procStat, watchLauncher } from "../../src/cli/launcher.js";

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
