import { readFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { admitRestore } from "../../src/domain/projects/snapshots.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import type { RunningServer } from "../../src/index.js";
import { logFilesOf } from "../../src/persistence/replay.js";
import { refusal } from "../helpers/refusal.js";
import { callControl as call, joinDemo as join } from "../helpers/running-server.js";
import { useStateFileServers } from "../helpers/state-file.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * A snapshot shares the project's records (issue 44): in memory it is a reference per record, in the state file a
 * run of lines naming records the file holds already, and after a restart the snapshots share them again.
 */

const disk = useStateFileServers("snapshot-sharing");
const SNAPSHOTS = "/__mock/projects/demo/snapshots";

const snapshotOf = (server: RunningServer, name: string) => server.registry.snapshots.get("demo", name);
const customerIn = (server: RunningServer, name: string, sourceId: string) =>
  snapshotOf(server, name).document.customers.find((customer) => customer.source_id === sourceId);

/** The lines every log of the state file holds, parsed. */
function logLines(file: string): Record<string, unknown>[] {
  return logFilesOf(file).flatMap(({ path }) =>
    readFileSync(path, "utf8")
      .split("\n")
      .filter((text) => text !== "")
      .map((text) => JSON.parse(text) as Record<string, unknown>),
  );
}

describe("a snapshot shares the project's records", () => {
  it("holds the project's own objects, frozen; a later write replaces the project's, never the snapshot's", async () => {
    const server = await disk.start();
    await join(server, "ada@example.com");
    await call(server, "POST", SNAPSHOTS, { name: "start" });
    const project = server.registry.get("demo");
    const ada = project.customers.findBySourceId("ada@example.com");
    const held = customerIn(server, "start", "ada@example.com");
    expect(held).toBe(project.customers.stored(ada?.id ?? ""));
    expect(Object.isFrozen(held)).toBe(true);
    const card = snapshotOf(server, "start").document.vouchers[0];
    expect(card).toBe(project.vouchers.stored(card?.id ?? ""));

    const res = await fetch(`${server.url}/v1/events`, {
      method: "POST",
      headers: { ...DEMO_KEYS, "Content-Type": "application/json" },
      body: JSON.stringify({
        event: "user_subscribed",
        customer: { source_id: "ada@example.com" },
        metadata: { plan: "gold" },
      }),
    });
    expect(res.status).toBe(200);
    expect(customerIn(server, "start", "ada@example.com")).toBe(held);
  });

  it("the log names records it holds already: runs of the fixtures' and of the last snapshot's, each once", async () => {
    const first = await disk.start();
    for (const who of ["ada", "bea", "cy"]) await join(first, `${who}@example.com`);
    await call(first, "POST", SNAPSHOTS, { name: "one" });
    await join(first, "dan@example.com");
    await call(first, "POST", SNAPSHOTS, { name: "two" });
    await first.stateStore?.writer.flush();

    const lines = logLines(disk.file);
    const two = lines.filter((line) => line.n === "two" && (line.o === "sput" || line.o === "srun"));
    // What changed between the saves is written whole (dan's customer, card and publication), and so are the
    // API keys, whose document form is made from the store on each read; the rest are runs naming the fixtures'
    // records or snapshot one's.
    const written = two.filter((line) => line.o === "sput" && line.c !== "api_keys").map((line) => line.c);
    expect(written.sort()).toEqual(["customers", "publications", "vouchers"]);
    expect(two.some((line) => line.o === "srun" && line.f === "one")).toBe(true);
    // Snapshot one: the three cards handed out are written whole, the 1,015 others are one run of fixtures.
    const cards = lines.filter((line) => line.n === "one" && line.c === "vouchers");
    const fixtureCards = first.registry.fixturesOf("demo").vouchers.length;
    expect(cards.filter((line) => line.o === "sput")).toHaveLength(3);
    expect(cards.filter((line) => line.o === "srun")).toEqual([
      { o: "srun", p: "demo", n: "one", c: "vouchers", i: 3, m: fixtureCards - 3 },
    ]);

    const documents = ["one", "two"].map((name) => structuredClone(snapshotOf(first, name).document));
    const second = await disk.restart(first);
    expect(["one", "two"].map((name) => snapshotOf(second, name).document)).toEqual(documents);
    // ada joined before both: one object in the two snapshots again, as before the restart.
    expect(customerIn(second, "two", "ada@example.com")).toBe(customerIn(second, "one", "ada@example.com"));
    expect(snapshotOf(second, "two").document.vouchers.at(-1)).toBe(
      second.registry.fixturesOf("demo").vouchers.at(-1),
    );

    // A compacted state file shares them the same way.
    await second.stateStore?.compact();
    const third = await disk.restart(second);
    expect(["one", "two"].map((name) => snapshotOf(third, name).document)).toEqual(documents);
    expect(customerIn(third, "two", "ada@example.com")).toBe(customerIn(third, "one", "ada@example.com"));
  });

  it("a restore is one line naming the snapshot; a restart shows what the restore answered", async () => {
    const first = await disk.start();
    await join(first, "ada@example.com");
    await call(first, "POST", SNAPSHOTS, { name: "start" });
    await join(first, "bea@example.com");
    await call(first, "POST", "/__mock/projects/demo/clock", { advance_seconds: 3600 });
    const restored = await call(first, "POST", `${SNAPSHOTS}/start/restore`);
    expect(restored.status).toBe(200);
    const state = exportProject(first.registry.get("demo"));
    await first.stateStore?.writer.flush();
    const lines = logLines(disk.file);
    expect(lines.filter((line) => line.o === "restore")).toEqual([{ o: "restore", p: "demo", n: "start" }]);
    expect(lines.filter((line) => line.o === "state")).toEqual([]);

    const second = await disk.restart(first);
    expect(exportProject(second.registry.get("demo"))).toEqual(state);
  });
});

describe("the snapshot memory budget (LOYALTY_MOCK_SNAPSHOT_MEMORY_MB)", () => {
  it("refuses a save past it with 409 limit_exceeded naming it; nothing is saved, in memory or on disk", async () => {
    const first = await disk.start({ caps: { snapshotMemoryMb: 16 } });
    const refused = await call(first, "POST", SNAPSHOTS, { name: "start" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ key: "limit_exceeded", message: "Limit exceeded" });
    expect(String(refused.body.details)).toMatch(
      /^Saving snapshot start of project demo would bring the server's heap to \d+ MiB, past its memory budget of 16 MiB; LOYALTY_MOCK_SNAPSHOT_MEMORY_MB raises the budget/,
    );
    expect((await call(first, "GET", SNAPSHOTS)).body.total).toBe(0);
    const second = await disk.restart(first);
    expect((await call(second, "GET", SNAPSHOTS)).body.total).toBe(0);
  });

  it("counts the restores still being built: one that fits alone is refused beside 256 MiB of them", () => {
    const { registry } = buildWorld();
    const snapshot = registry.snapshots.save(registry.get("demo"), "start", {
      replace: false,
      limit: 20,
      now: 0,
      budgetMb: 100_000,
    });
    // Room for this restore (a few hundred KiB) with 64 MiB to spare, none for 256 MiB more.
    const budgetMb = Math.ceil(getHeapStatistics().used_heap_size / 2 ** 20) + 64;
    const bytes = admitRestore("demo", snapshot, budgetMb);
    expect(bytes).toBeGreaterThan(0);
    expect(refusal(() => admitRestore("demo", snapshot, budgetMb, 256 * 2 ** 20))).toMatchObject({
      status: 409,
      key: "limit_exceeded",
      details: expect.stringMatching(
        /^Restoring snapshot start of project demo would bring the server's heap to \d+ MiB, past its memory budget/,
      ),
    });
  });

  it("refuses a restore past it before anything changes; a restart shows the state it kept", async () => {
    const first = await disk.start();
    await call(first, "POST", SNAPSHOTS, { name: "start" });
    await join(first, "ada@example.com");
    const state = exportProject(first.registry.get("demo"));
    const second = await disk.restart(first, { caps: { snapshotMemoryMb: 16 } });
    const refused = await call(second, "POST", `${SNAPSHOTS}/start/restore`);
    expect(refused.status).toBe(409);
    expect(String(refused.body.details)).toMatch(/^Restoring snapshot start of project demo would bring/);
    expect(exportProject(second.registry.get("demo"))).toEqual(state);
    const third = await disk.restart(second);
    expect(exportProject(third.registry.get("demo"))).toEqual(state);
  });
});
