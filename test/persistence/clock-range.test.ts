import { describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { control } from "../helpers/control.js";
import { moveClock, tokenFor } from "../helpers/control-steps.js";
import { expectError } from "../helpers/http.js";
import { useStateFileServers } from "../helpers/state-file.js";
import { DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 38: no clock move, freeze, import or state file puts a stored instant where the state format cannot hold
 * it (a four-digit year), so the server always loads the file it wrote and takes back every export it made.
 * Each case goes through a restart on the file, then through its own export put back.
 */

const disk = useStateFileServers("clock-range");
const RANGE = "A project clock shows instants from 0000-01-01T00:00:00.000Z to 9999-12-30T23:59:59.999Z";

const clockOf = async (server: RunningServer) =>
  (await control(server.app, { method: "GET", path: "/__mock/projects/demo/clock" })).body as {
    now: string;
    frozen: boolean;
    offset_ms: number;
  };

type Doc = {
  project: { clock: { frozen_at?: string; offset_ms: number } };
  tokens: { expires_at: string; revoke_at: string | null }[];
};
const exportOf = async (server: RunningServer) =>
  (await control(server.app, { method: "GET", path: "/__mock/projects/demo/state" })).body as Doc;

/** Restarts on the file, then puts the restarted server's export back: both must be taken. */
async function roundTrip(server: RunningServer, options = {}): Promise<RunningServer> {
  const restarted = await disk.restart(server, options);
  const exported = await exportOf(restarted);
  const put = await control(restarted.app, {
    method: "PUT",
    path: "/__mock/projects/demo/state",
    body: exported,
  });
  expect(put.status).toBe(200);
  return restarted;
}

async function refused(server: RunningServer, body: unknown, at: string) {
  const before = await clockOf(server);
  expectError(await moveClock(server.app, "demo", body), 400, {
    key: "invalid_payload",
    details: `${RANGE} (what the state file can hold, less a day for what is stored ahead of the clock); this would put it at ${at}`,
  });
  const after = await clockOf(server);
  // A running clock's `now` runs on with the machine's between the two readings; its offset says it did not move.
  expect(before.frozen ? after : { ...after, now: before.now }).toEqual(before);
}

describe("a project clock stays where the state file can follow it", () => {
  it("freezing at 9999-12-31T23:59 is refused; at the range's end a token and a key's day of grace fit, and load back", async () => {
    const first = await disk.start();
    await refused(first, { set: "9999-12-31T23:59:00Z", freeze: true }, "9999-12-31T23:59:00.000Z");
    expect((await clockOf(first)).frozen).toBe(false);
    const grace = { token_grace_seconds: 86_400 };
    expect(
      (await control(first.app, { method: "PATCH", path: "/__mock/projects/demo/settings", body: grace }))
        .status,
    ).toBe(200);
    expect(
      (await moveClock(first.app, "demo", { set: "9999-12-30T23:59:59.999Z", freeze: true })).status,
    ).toBe(200);
    await tokenFor(first.app, DEMO_KEYS);
    const block = { method: "POST" as const, path: "/__mock/projects/demo/keys/demo-app-id/block" };
    expect((await control(first.app, block)).status).toBe(200);
    const second = await roundTrip(first);
    expect(await clockOf(second)).toMatchObject({ now: "9999-12-30T23:59:59.999Z", frozen: true });
    expect((await exportOf(second)).tokens).toContainEqual(
      expect.objectContaining({
        expires_at: "9999-12-31T00:14:59.999Z",
        revoke_at: "9999-12-31T23:59:59.999Z",
      }),
    );
  });

  it("advancing ten years at a time stops at the end, the refused move leaving the clock as it was", async () => {
    const first = await disk.start();
    await moveClock(first.app, "demo", { set: "9960-06-01T00:00:00.000Z", freeze: true });
    const tenYears = 316_224_000;
    let moves = 0;
    while ((await moveClock(first.app, "demo", { advance_seconds: tenYears })).status === 200) moves += 1;
    expect(moves).toBe(3);
    await refused(first, { advance_seconds: tenYears }, "+010000-07-01T00:00:00.000Z");
    await tokenFor(first.app, DEMO_KEYS);
    const second = await roundTrip(first);
    expect(await clockOf(second)).toMatchObject({ now: "9990-06-24T00:00:00.000Z", frozen: true });
  });

  it("before year 0 is refused, by a move back or an offset in the instant set", async () => {
    const first = await disk.start();
    expect(
      (await moveClock(first.app, "demo", { set: "0000-01-01T00:00:00.000Z", freeze: true })).status,
    ).toBe(200);
    await refused(first, { advance_seconds: -1 }, "-000001-12-31T23:59:59.000Z");
    await refused(first, { set: "0000-01-01T00:00:00+01:00" }, "-000001-12-31T23:00:00.000Z");
    await tokenFor(first.app, DEMO_KEYS);
    const second = await roundTrip(first);
    expect(await clockOf(second)).toMatchObject({ now: "0000-01-01T00:00:00.000Z", frozen: true });
  });

  it("PUT .../state refuses frozen_at 9999-12-31T23:59:59.999Z and changes nothing", async () => {
    const server = await disk.start();
    const document = await exportOf(server);
    document.project.clock.frozen_at = "9999-12-31T23:59:59.999Z";
    const before = await exportOf(server);
    const put = await control(server.app, {
      method: "PUT",
      path: "/__mock/projects/demo/state",
      body: document,
    });
    expectError(put, 400, {
      key: "invalid_payload",
      details: new RegExp(`^\\$\\.project\\.clock\\.frozen_at: ${RANGE}`),
    });
    expect(await exportOf(server)).toEqual(before);
  });

  it("a running clock set four centuries ahead keeps an offset the file takes back", async () => {
    const first = await disk.start();
    expect((await moveClock(first.app, "demo", { set: "2400-01-01T00:00:00.000Z" })).status).toBe(200);
    await tokenFor(first.app, DEMO_KEYS);
    const second = await roundTrip(first);
    const clock = await clockOf(second);
    expect(clock.frozen).toBe(false);
    expect(Date.parse(clock.now) - Date.parse("2400-01-01T00:00:00.000Z")).toBeLessThan(60_000);
  });

  it("a running clock that runs into the end stands still there, and the file loads back", async () => {
    const root = new ManualClock("2026-06-01T00:00:00.000Z");
    const first = await disk.start({ clock: root });
    expect((await moveClock(first.app, "demo", { set: "9999-12-30T23:59:58.000Z" })).status).toBe(200);
    root.advance(5);
    expect(await clockOf(first)).toMatchObject({ now: "9999-12-30T23:59:59.999Z", frozen: true });
    await tokenFor(first.app, DEMO_KEYS);
    const second = await roundTrip(first, { clock: root });
    expect(await clockOf(second)).toMatchObject({ now: "9999-12-30T23:59:59.999Z", frozen: true });
  });
});
