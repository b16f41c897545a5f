import { describe, expect, it } from "vitest";
import { heldRequestsOf } from "../../src/http/app.js";
import { playsOf } from "../../src/http/control/demo/plays.js";
import { type RunningServer, startServer } from "../../src/index.js";

/**
 * Issue 44: a play started with `POST /__mock/projects/{id}/plays` outlived `RunningServer.close()`, its pause
 * keeping a test process alive for 100 s. close() now stops every running play where it is, in a pause or in a
 * call, and resolves once each has ended, saying so.
 */

async function control(server: RunningServer, method: string, path: string, body: unknown) {
  const res = await fetch(`${server.url}/__mock${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

/** Polls until `done` holds, or fails after a deadline far past the work it waits for. */
async function until(done: () => boolean, what: string) {
  for (const deadline = Date.now() + 30_000; !done(); await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
}

describe("RunningServer.close() stops the plays the control API started", () => {
  it("in a pause: the play ends at once as stopped, the pause not waited out", async () => {
    const server = await startServer({ host: "127.0.0.1", port: 0 });
    // At speed 0.01 first-month's second step, a 2 s pause, lasts 200 s: longer than any test waits.
    await control(server, "POST", "/projects/demo/plays", { scenario: "first-month", speed: 0.01 });
    const board = playsOf(server.registry);
    await until(() => board.list(server.registry.get("demo"))[0]?.played === 1, "the first step played");
    await server.close();
    expect(board.list(server.registry.get("demo"))[0]).toMatchObject({
      status: "failed",
      played: 2,
      failure: "step 2 (pause 2 s) stopped: the server is closing",
    });
  });

  it("in a call a fault holds back: the call is abandoned, the play ends as stopped", async () => {
    const server = await startServer({ host: "127.0.0.1", port: 0 });
    await control(server, "POST", "/projects/demo/faults", {
      method: "POST",
      path: "/v1/loyalties/{id}/members",
      action: "delay",
      latency_ms: 15_000,
    });
    await control(server, "POST", "/projects/demo/plays", { scenario: "first-month", speed: 1000 });
    await until(() => (heldRequestsOf(server.app)?.size ?? 0) > 0, "the play's first call held");
    await server.close();
    expect(playsOf(server.registry).list(server.registry.get("demo"))[0]).toMatchObject({
      status: "failed",
      played: 1,
      failure: "step 1 (join zofia.lis@example.com) stopped: the server is closing",
    });
  });
});
