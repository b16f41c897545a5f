import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, killGroup, type Started, startBuilt } from "../helpers/process.js";
import { rawRequest } from "../helpers/raw-http.js";

/**
 * The regression of test/fuzz/regressions.test.ts that needs the real process (node dist/main.js): bodies nested
 * deeper than the stack once crashed it, which an in-process server cannot show.
 */

const KEYS: [string, string][] = [
  ["X-App-Id", "demo-app-id"],
  ["X-App-Token", "demo-app-token"],
];
const JSON_TYPE: [string, string] = ["Content-Type", "application/json"];
const deepArray = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

describe("the real process survives what used to crash it", () => {
  let server: Started;
  let port: number;

  beforeAll(async () => {
    build();
    ({ server, port } = await startBuilt({
      LOYALTY_MOCK_LOG_LEVEL: "silent",
      LOYALTY_MOCK_FIXTURES_DIR: "",
    }));
  }, 60_000);
  afterAll(() => killGroup(server, "SIGKILL"));

  it("deeply nested bodies on every JSON operation leave it serving (node dist/main.js)", async () => {
    const deep = deepArray(200_000);
    for (const target of [
      "/v1/events",
      "/v1/loyalties/camp_demo_loyalty/members",
      "/__mock/projects/demo/state",
    ]) {
      const method = target.endsWith("/state") ? "PUT" : "POST";
      const response = await rawRequest(port, { method, target, headers: [...KEYS, JSON_TYPE], body: deep });
      expect(response.status).toBe(400);
    }
    const probe = await rawRequest(port, {
      method: "GET",
      target: "/v1/locations/loc_demo_circle",
      headers: KEYS,
    });
    expect(probe.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
