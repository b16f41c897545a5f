import { describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/index.js";
import { useStateFileServers } from "../helpers/state-file.js";
import { DEMO_KEYS } from "../helpers/world.js";

/**
 * A campaign's open cards are handed out in their stable order, and a restart from the state file goes on where
 * the server stopped: after assignments, a reset and more assignments, the next cards are the ones a server that
 * never stopped hands out. The queue of open cards asks the store which cards are still open (id-queue.ts), so a
 * restart must rebuild it from the records alone.
 */

const disk = useStateFileServers("open-cards");

/** Joins a customer to the demo's loyalty campaign: the id of the card handed out. */
async function join(server: RunningServer, sourceId: string): Promise<string> {
  const res = await fetch(`${server.url}/v1/loyalties/camp_demo_loyalty/members`, {
    method: "POST",
    headers: { ...DEMO_KEYS, "Content-Type": "application/json" },
    body: JSON.stringify({ customer: { source_id: sourceId } }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function reset(server: RunningServer): Promise<void> {
  const res = await fetch(`${server.url}/__mock/projects/demo/reset`, { method: "POST" });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

/** Three joins, a reset, two joins; then `between` (a restart, or nothing), and three joins more. */
async function handedOut(first: RunningServer, between: (server: RunningServer) => Promise<RunningServer>) {
  const cards = [];
  for (const who of ["ada", "bea", "cy"]) cards.push(await join(first, who));
  await reset(first);
  for (const who of ["dan", "eve"]) cards.push(await join(first, who));
  const server = await between(first);
  for (const who of ["fay", "gus", "hal"]) cards.push(await join(server, who));
  return cards;
}

/** The cards a server that never stopped hands out in `handedOut`. */
async function unstopped(): Promise<string[]> {
  const server = await startServer({ port: 0 });
  try {
    return await handedOut(server, async (same) => same);
  } finally {
    await server.close();
  }
}

describe("the open cards across a restart from the state file", () => {
  it("are handed out as by a server that never stopped, restarted from the change log", async () => {
    const expected = await unstopped();
    // The reset gave the first cards back; the five after it are all different.
    expect(expected[3]).toBe(expected[0]);
    expect(new Set(expected.slice(3)).size).toBe(5);
    expect(await handedOut(await disk.start(), (server) => disk.restart(server))).toEqual(expected);
  });

  it("are handed out as by a server that never stopped, restarted from a compacted snapshot", async () => {
    const expected = await unstopped();
    const restarted = await handedOut(await disk.start(), async (server) => {
      await server.stateStore?.compact();
      return disk.restart(server);
    });
    expect(restarted).toEqual(expected);
  });
});
