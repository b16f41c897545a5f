import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, killGroup, launch, listeningOn, type Started } from "../helpers/process.js";

/**
 * A save or a restore that finds the heap over the memory budget first has V8 collect beside the running code
 * (`vm.measureMemory`, src/platform/memory-budget.ts), which Node calls experimental and warns about on its first
 * call in a process. Here in a process of its own, so that call is its first: the server's output has no such
 * warning, and the answers are the budget's own.
 */
describe("the memory budget in a server process", () => {
  let server: Started;
  let base: string;
  beforeAll(async () => {
    build();
    server = launch("node", ["dist/main.js", "--port", "0"], {
      LOYALTY_MOCK_SNAPSHOT_MEMORY_MB: "16",
      LOYALTY_MOCK_EXIT_WITH_PARENT: "false",
    });
    ({ base } = await listeningOn(server));
  });
  afterAll(() => killGroup(server, "SIGKILL"));

  it("a save past a budget below what is live is 409 after the collection, and Node's experimental warning is not shown", async () => {
    const saved = await fetch(`${base}/__mock/projects/demo/snapshots`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "start" }),
    });
    expect(saved.status).toBe(409);
    expect(await saved.json()).toMatchObject({
      key: "limit_exceeded",
      details: expect.stringMatching(
        /past its memory budget of 16 MiB; LOYALTY_MOCK_SNAPSHOT_MEMORY_MB raises/,
      ),
    });
    const restored = await fetch(`${base}/__mock/projects/demo/snapshots/nope/restore`, { method: "POST" });
    expect(restored.status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.stderr()).not.toMatch(/Warning|measureMemory/);
    expect((await fetch(`${base}/__mock/health`)).status).toBe(200);
  });
});
