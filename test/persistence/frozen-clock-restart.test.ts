import { describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/index.js";
import { useStateFileServers } from "../helpers/state-file.js";
import { DEMO_KEYS } from "../helpers/world.js";

/** Issue 28: the state file keeps a frozen clock frozen, and a seeded project never repeats a saved value. */

const disk = useStateFileServers("frozen");
const start = disk.start;

async function clockOf(server: RunningServer, project = "demo") {
  return (await fetch(`${server.url}/__mock/projects/${project}/clock`)).json();
}

async function postClock(server: RunningServer, body: unknown) {
  const res = await fetch(`${server.url}/__mock/projects/demo/clock`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

async function issueToken(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/v1/oauth/token`, {
    method: "POST",
    headers: { ...DEMO_KEYS, "Content-Type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&scope=api",
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const restart = disk.restart;

describe("a frozen clock and a seed, across restarts", () => {
  it("a clock frozen through the control API is still frozen, at the same moment, after a restart", async () => {
    const first = await start();
    await postClock(first, { set: "2031-02-03T04:05:06.000Z", freeze: true });
    await postClock(first, { advance_seconds: 10 });
    const second = await restart(first);
    expect(await clockOf(second)).toMatchObject({ now: "2031-02-03T04:05:16.000Z", frozen: true });
    expect(await clockOf(second, "other")).toMatchObject({ frozen: false });
  });

  it("LOYALTY_MOCK_FREEZE_CLOCK's frozen clocks stay as the state file keeps them, unfrozen ones too", async () => {
    const first = await start({ freezeClock: "2026-01-01T00:00:00.000Z" });
    await postClock(first, { advance_seconds: 60 });
    const other = await fetch(`${first.url}/__mock/projects/other/clock`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ freeze: false }),
    });
    expect(other.status).toBe(200);
    const second = await restart(first, { freezeClock: "2026-01-01T00:00:00.000Z" });
    expect(await clockOf(second)).toMatchObject({ now: "2026-01-01T00:01:00.000Z", frozen: true });
    expect(await clockOf(second, "other")).toMatchObject({ frozen: false });
  });

  it("a seeded project restored from the state file never issues a token it issued before", async () => {
    const first = await start({ seed: "restart" });
    const before = [await issueToken(first), await issueToken(first)];
    const second = await restart(first, { seed: "restart" });
    const after = [await issueToken(second), await issueToken(second)];
    expect(after.filter((token) => before.includes(token))).toEqual([]);
  });
});
