import { describe, expect, it } from "vitest";
import { heldRequestsOf } from "../../src/http/app.js";
import type { RunningServer } from "../../src/index.js";
import { useStateFileServers } from "../helpers/state-file.js";
import { DEMO_KEYS } from "../helpers/world.js";

/**
 * Issue 38: `docker stop` waits 10 s before it kills. A request held by a 15 s delay fault kept the drain waiting
 * until its own limit (10 s), and the state was saved with a millisecond to spare. Stopping now lets every held
 * request go on at once: answered as its rule says, journaled, and the state saved, all well inside the grace.
 */

const disk = useStateFileServers("faults-at-stop");

async function addFault(server: RunningServer, body: unknown) {
  const res = await fetch(`${server.url}/__mock/projects/demo/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
}

async function heldOne(server: RunningServer) {
  const held = heldRequestsOf(server.app);
  for (
    const deadline = Date.now() + 10_000;
    (held?.size ?? 0) === 0;
    await new Promise((r) => setTimeout(r, 10))
  )
    if (Date.now() > deadline) throw new Error("the request was never held");
}

describe("requests a fault holds back, when the server stops", () => {
  it.each([
    ["a delay", { action: "delay" }, 200],
    ["an error after its latency", { action: "error", status: 503 }, 503],
  ])("%s of 15 s: answered, journaled and the state saved at once", async (_case, rule, status) => {
    const server = await disk.start();
    await addFault(server, { method: "POST", path: "/v1/events", latency_ms: 15_000, ...rule });
    const answer = fetch(`${server.url}/v1/events`, {
      method: "POST",
      headers: { ...DEMO_KEYS, "content-type": "application/json" },
      body: JSON.stringify({
        event: "user_subscribed",
        customer: { source_id: "held" },
        metadata: { plan: "pro" },
      }),
    });
    await heldOne(server);
    const began = Date.now();
    await server.close();
    expect(Date.now() - began).toBeLessThan(2000);
    const res = await answer;
    expect(res.status).toBe(status);
    const [entry] = server.registry.get("demo").journal.list();
    expect(entry).toMatchObject({ method: "POST", status, fault: { action: rule.action } });
    // The state the stop saved holds what the released request wrote (the delayed event), and nothing for the error.
    const again = await disk.start();
    const state = (await (await fetch(`${again.url}/__mock/projects/demo/state`)).json()) as {
      customers: { source_id: string | null }[];
    };
    expect(state.customers.some((customer) => customer.source_id === "held")).toBe(status === 200);
  });

  it("a request arriving once the stop began is not held either", async () => {
    const server = await disk.start();
    await addFault(server, {
      method: "GET",
      path: "/v1/locations/{id}",
      latency_ms: 15_000,
      action: "delay",
    });
    heldRequestsOf(server.app)?.release();
    const began = Date.now();
    const res = await fetch(`${server.url}/v1/locations/loc_demo_circle`, { headers: DEMO_KEYS });
    expect(res.status).toBe(200);
    expect(Date.now() - began).toBeLessThan(2000);
  });
});
