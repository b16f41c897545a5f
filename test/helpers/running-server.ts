import { expect } from "vitest";
import type { RunningServer } from "../../src/index.js";
import { validateControl } from "./control.js";
import { DEMO_KEYS } from "./world.js";

/** A control API call to a listening server, its answer checked against the control API's own document. */
export async function callControl(server: { url: string }, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as Record<string, unknown>;
  validateControl(method, path, res.status, json);
  return { status: res.status, body: json };
}

/** A customer of that source id (and name) joins the demo's loyalty program: 200, or the test fails. */
export async function joinDemo(server: RunningServer, sourceId: string): Promise<void> {
  const res = await fetch(`${server.url}/v1/loyalties/camp_demo_loyalty/members`, {
    method: "POST",
    headers: { ...DEMO_KEYS, "Content-Type": "application/json" },
    body: JSON.stringify({ customer: { source_id: sourceId, name: sourceId } }),
  });
  expect(res.status).toBe(200);
}
