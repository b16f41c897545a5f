import { describe, expect, it } from "vitest";
import { exportProject } from "../../src/domain/projects/state-export.js";
import type { RunningServer } from "../../src/index.js";
import { callControl as call, joinDemo as join } from "../helpers/running-server.js";
import { useStateFileServers } from "../helpers/state-file.js";

/** Named snapshots are kept in the state file: a restart (from the change log, then from a snapshot) has them. */

const disk = useStateFileServers("snapshots");

const SNAPSHOTS = "/__mock/projects/demo/snapshots";
const recordsOf = (server: RunningServer) => {
  const { project: _header, ...collections } = exportProject(server.registry.get("demo"));
  return collections;
};

describe("named snapshots with a state file", () => {
  it("a restart keeps them, from the log and from a compacted snapshot; restore after it is exact", async () => {
    const first = await disk.start();
    await join(first, "ada@example.com");
    const saved = await call(first, "POST", SNAPSHOTS, { name: "start" });
    expect(saved.status).toBe(201);
    const records = recordsOf(first);
    await join(first, "bea@example.com");
    await call(first, "POST", SNAPSHOTS, { name: "later" });
    await call(first, "DELETE", `${SNAPSHOTS}/later`);

    // From the change log.
    const second = await disk.restart(first);
    const listed = await call(second, "GET", SNAPSHOTS);
    expect(listed.body.snapshots).toEqual([saved.body]);
    expect((await call(second, "POST", `${SNAPSHOTS}/start/restore`)).status).toBe(200);
    expect(recordsOf(second)).toEqual(records);
    await join(second, "cy@example.com");

    // From a snapshot of the state file: compacted first, so the next start reads the named snapshot from it.
    await second.stateStore?.compact();
    const third = await disk.restart(second);
    expect((await call(third, "GET", SNAPSHOTS)).body.snapshots).toEqual([saved.body]);
    expect(third.registry.get("demo").customers.findBySourceId("cy@example.com")).toBeDefined();
    expect((await call(third, "POST", `${SNAPSHOTS}/start/restore`)).status).toBe(200);
    expect(recordsOf(third)).toEqual(records);

    await call(third, "DELETE", `${SNAPSHOTS}/start`);
    const fourth = await disk.restart(third);
    expect((await call(fourth, "GET", SNAPSHOTS)).body.total).toBe(0);
  });

  it("a project removed takes its snapshots out of the file", async () => {
    const first = await disk.start();
    await call(first, "POST", "/__mock/projects", { project: { id: "brief" } });
    await call(first, "POST", "/__mock/projects/brief/snapshots", { name: "start" });
    await call(first, "DELETE", "/__mock/projects/brief");
    await call(first, "POST", "/__mock/projects", { project: { id: "brief" } });
    const second = await disk.restart(first);
    expect((await call(second, "GET", "/__mock/projects/brief/snapshots")).body.total).toBe(0);
  });
});
