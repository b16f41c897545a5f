import type { Server } from "node:http";
import { describe, expect, it } from "vitest";
import { exportProject } from "../../src/domain/projects/state-export.js";
import type { RunningServer } from "../../src/index.js";
import { BIG_KEYS, bigProject } from "../helpers/big-project.js";
import { useStateFileServers } from "../helpers/state-file.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * A project built in slices (a reset, a restore, an import) is put in place in one step, and the state file logs
 * that step where it happened among the writes around it: after a restart the server shows what it last answered.
 * A server closed during a build installs nothing, and its file holds the state before the build.
 */

const disk = useStateFileServers("builds-in-slices");
const CARDS = 3000;

const start = (options: { drainTimeoutMs?: number } = {}) =>
  disk.start({
    documents: [...defaultDocuments(), bigProject(CARDS)],
    sliceMs: 0,
    stateSync: "always",
    ...options,
  });

function received(server: Server, method: string, path: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (req: { method?: string; originalUrl?: string }) => {
      if (req.method !== method || req.originalUrl !== path) return;
      server.off("request", listener);
      setImmediate(resolve);
    };
    server.on("request", listener);
  });
}

const call = (server: RunningServer, method: string, path: string, body?: unknown, headers = {}) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));

const join = (server: RunningServer, sourceId: string) =>
  call(
    server,
    "POST",
    "/v1/loyalties/camp_demo_loyalty/members",
    { customer: { source_id: sourceId } },
    BIG_KEYS,
  );

/** A build asked for, with a card assignment sent once the server is on it: both must succeed. */
async function withWrite(
  server: RunningServer,
  method: string,
  path: string,
  sourceId: string,
  body?: unknown,
) {
  const taken = received(server.server, method, path);
  const build = call(server, method, path, body);
  await taken;
  const write = await join(server, sourceId);
  expect(write.status).toBe(200);
  return build;
}

describe("builds in slices and the state file", () => {
  it("a reset, a restore and an import, each with a write during it: a restart shows what the server answered", async () => {
    const first = await start();
    expect((await join(first, "ada@example.com")).status).toBe(200);
    expect((await call(first, "POST", "/__mock/projects/big/snapshots", { name: "ada" })).status).toBe(201);

    expect((await withWrite(first, "POST", "/__mock/projects/big/reset", "bea@example.com")).status).toBe(
      200,
    );
    expect((await join(first, "cy@example.com")).status).toBe(200);
    const restore = await withWrite(
      first,
      "POST",
      "/__mock/projects/big/snapshots/ada/restore",
      "dee@example.com",
    );
    expect(restore.status).toBe(200);
    const document = exportProject(first.registry.get("big"));
    expect(
      (await withWrite(first, "PUT", "/__mock/projects/big/state", "eve@example.com", document)).status,
    ).toBe(200);
    expect((await join(first, "fay@example.com")).status).toBe(200);

    const before = exportProject(first.registry.get("big"));
    const holders = (state: typeof before) =>
      state.customers.map((customer) => customer.source_id).filter((id) => id?.endsWith("@example.com"));
    // Each build replaced what was written during it; what was written after it stays.
    expect(holders(before)).toEqual(expect.arrayContaining(["ada@example.com", "fay@example.com"]));
    for (const gone of ["bea@example.com", "cy@example.com", "dee@example.com", "eve@example.com"])
      expect(holders(before)).not.toContain(gone);

    const second = await disk.restart(first);
    expect(exportProject(second.registry.get("big"))).toEqual(before);
  });

  it("a server closed during a reset ends, installs nothing, and its file holds the state before the reset", async () => {
    // A drain of no time: the reset's connection is cut at once, and the build stops at its next slice.
    const first = await start({ drainTimeoutMs: 0 });
    expect((await join(first, "ada@example.com")).status).toBe(200);
    const before = exportProject(first.registry.get("big"));
    const taken = received(first.server, "POST", "/__mock/projects/big/reset");
    const reset = call(first, "POST", "/__mock/projects/big/reset").catch(() => "cut");
    await taken;
    const second = await disk.restart(first);
    expect(await reset).toBe("cut");
    expect(exportProject(second.registry.get("big"))).toEqual(before);
  });
});
