import type request from "supertest";
import { expect } from "vitest";
import { expectError, send } from "./http.js";
import { DEMO_KEYS, type World } from "./world.js";

/** A bearer token for the demo key, asked for over HTTP as a client would. */
export async function demoToken(world: World, scope = "api", keys: Record<string, string> = DEMO_KEYS) {
  const res = await send(world.app, {
    method: "POST",
    path: "/v1/oauth/token",
    headers: keys,
    body: { grant_type: "client_credentials", scope },
    form: true,
  });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

/** What a v2 call carries in the default (strict) mode: the bearer token and the key pair. */
export async function v2Headers(world: World, scope = "api"): Promise<Record<string, string>> {
  return { ...DEMO_KEYS, Authorization: `Bearer ${await demoToken(world, scope)}` };
}

/**
 * Everything the v2 operations can change in a project, as plain data: a refused request must leave it equal.
 * Tokens are left out on purpose (asking for one is how the tests authenticate).
 */
export function v2State(world: World): unknown {
  return structuredClone({
    demo: {
      tierStructures: world.demo.tierStructures.list(),
      incentives: world.demo.incentives.list(),
      earningRules: world.demo.earningRules.list(),
      segments: world.demo.segments.list(),
    },
    other: {
      tierStructures: world.other.tierStructures.list(),
      incentives: world.other.incentives.list(),
    },
  });
}

/** Runs a request that must be refused with `status`, and checks that it left every v2 store as it was. */
export async function expectRefusedUnchanged(
  world: World,
  call: () => Promise<request.Response>,
  status: number,
  expected: Parameters<typeof expectError>[2],
): Promise<request.Response> {
  const before = v2State(world);
  const res = await call();
  expectError(res, status, expected);
  expect(v2State(world)).toEqual(before);
  return res;
}
