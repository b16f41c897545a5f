import type { Operation } from "../../src/http/operations/table.js";
import { filledPath } from "../../src/http/route.js";
import { send } from "./http.js";
import { v2Headers } from "./v2.js";
import { DEMO_KEYS, demoIds, type World } from "./world.js";

/**
 * A plain successful call of an operation against the demo project: its row's example (from the demo's records),
 * with the credentials its row takes (the bearer token and the key pair for v2), over HTTP.
 */
export async function exampleCall(world: World, row: Operation, n = 0) {
  const { params, body } = row.example(demoIds(n));
  return send(world.app, {
    method: row.method,
    path: filledPath(row.path, params),
    headers: row.auth.v2 ? await v2Headers(world) : DEMO_KEYS,
    ...(row.body === "form" && { form: true }),
    ...(body !== undefined && { body }),
  });
}
