import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, killGroup, type Started, startBuilt } from "../helpers/process.js";

/**
 * A state past V8's longest string (issue 44): 0.10.0 answered 500 to a snapshot of a project whose state was over
 * about 512 MiB as JSON (`RangeError: Invalid string length`), and its restore answered 500 after changing memory.
 * Here 540 events of a megabyte each, within the default caps: the save and the restore answer 201 and 200, and a
 * restart shows what the server last answered.
 */

const DEMO = {
  "X-App-Id": "demo-app-id",
  "X-App-Token": "demo-app-token",
  "Content-Type": "application/json",
};
const EVENTS = 540;
/** A megabyte of metadata in strings of the longest a metadata string may be (64,000 characters). */
const METADATA = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`part${i}`, "x".repeat(64_000)]));

let dir: string;
const running: Started[] = [];
beforeAll(() => {
  build();
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-state-limits-"));
});
afterAll(() => {
  for (const server of running) killGroup(server, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<{ server: Started; base: string }> {
  const started = await startBuilt({ LOYALTY_MOCK_STATE_FILE: join(dir, "state.json") }, 300_000);
  running.push(started.server);
  return started;
}

async function stop(server: Started): Promise<void> {
  killGroup(server, "SIGTERM");
  expect((await server.exited).code).toBe(0);
}

async function json(base: string, path: string, init?: RequestInit) {
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** What the project holds, without its journal (a restore and a restart start it empty, as a reset does). */
async function counts(base: string) {
  const { requests: _journal, ...held } = (await json(base, "/__mock/projects/demo")).body
    .counts as object & {
    requests: number;
  };
  return held;
}

describe("a state past 512 MiB as JSON", () => {
  it("saves and restores a snapshot of it, and a restart shows what the server answered", {
    timeout: 900_000,
  }, async () => {
    const { server, base } = await start();
    for (let i = 0; i < EVENTS; i++) {
      const res = await fetch(`${base}/v1/events`, {
        method: "POST",
        headers: DEMO,
        body: JSON.stringify({
          event: "cart_abandoned",
          customer: { source_id: `bulk-${i}` },
          metadata: METADATA,
        }),
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const saved = await json(base, "/__mock/projects/demo/snapshots", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "big" }),
    });
    expect(saved.status).toBe(201);
    const atSave = await counts(base);
    // One more event after the save, then back to the snapshot: the restore drops it.
    const extra = await fetch(`${base}/v1/events`, {
      method: "POST",
      headers: DEMO,
      body: JSON.stringify({ event: "cart_abandoned", customer: { source_id: "after" } }),
    });
    expect(extra.status).toBe(200);
    expect((await json(base, "/__mock/projects/demo/snapshots/big/restore", { method: "POST" })).status).toBe(
      200,
    );
    expect(await counts(base)).toEqual(atSave);
    await stop(server);

    const again = await start();
    expect(await counts(again.base)).toEqual(atSave);
    const listed = await json(again.base, "/__mock/projects/demo/snapshots");
    expect(listed.body.snapshots).toEqual([saved.body]);
    await stop(again.server);
  });
});
