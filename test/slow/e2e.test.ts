import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateAny } from "../helpers/contract.js";
import {
  build,
  freePort,
  killGroup,
  launch,
  listeningOn,
  type Started,
  startBuilt,
  waitForHttp,
  waitForOutput,
} from "../helpers/process.js";

const KEYS = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };

async function call(base: string, method: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, { method, ...init });
  const body = (await res.json()) as Record<string, unknown>;
  validateAny(method, path, res.status, body);
  return { status: res.status, body, headers: res.headers };
}

describe("the real server process (node dist/main.js) over the network", () => {
  let server: Started;
  let base: string;

  beforeAll(async () => {
    build();
    ({ server, base } = await startBuilt({ LOYALTY_MOCK_LOG_LEVEL: "info", LOYALTY_MOCK_FIXTURES_DIR: "" }));
  }, 60_000);

  afterAll(() => killGroup(server, "SIGKILL"));

  it("serves the quick-start location with the demo key pair", async () => {
    const res = await call(base, "GET", "/v1/locations/loc_demo_circle", { headers: KEYS });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe("loc_demo_circle");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("issues a token over a form body and accepts it on X-Service-OAuth", async () => {
    const token = await call(base, "POST", "/v1/oauth/token", {
      headers: { ...KEYS, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&scope=locations",
    });
    expect(token.status).toBe(200);
    const res = await call(base, "GET", "/v1/locations/loc_demo_polygon", {
      headers: { "X-Service-OAuth": String(token.body.access_token) },
    });
    expect(res.status).toBe(200);
  });

  it("answers an unknown route with the error object", async () => {
    const res = await call(base, "GET", "/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 404,
      key: "not_found",
      request_id: res.headers.get("x-request-id"),
    });
  });

  it("logs requests as JSON lines without the secrets", async () => {
    const { headers } = await call(base, "GET", "/v1/locations/loc_demo_circle", {
      headers: { ...KEYS, Authorization: "Bearer sekrit-token" },
    });
    // This request's line comes once its exchange is over: wait for it by its id rather than for a fixed time.
    await waitForOutput(server, "stdout", new RegExp(`"reqId":"${headers.get("x-request-id")}"[^\n]*\n`));
    const lines = server.stdout().trim().split("\n");
    const records = lines.map((line) => JSON.parse(line));
    expect(records.some((line) => line.msg?.startsWith("loyalty-mock listening on"))).toBe(true);
    // At info, one flat line per request and no headers (docs/performance.md; at debug they come redacted).
    expect(records).toContainEqual(
      expect.objectContaining({ method: "GET", url: "/v1/locations/loc_demo_circle", statusCode: 200 }),
    );
    expect(records.every((line) => line.req === undefined)).toBe(true);
    expect(server.stdout()).not.toContain("demo-app-token");
    expect(server.stdout()).not.toContain("sekrit-token");
  });

  it("stops on SIGTERM with exit code 0", async () => {
    killGroup(server, "SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe("start-up failures say what is wrong", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  // Since 0.5.0 (issue 14): status 2 and the setting named, as for every bad setting; was 1 and "could not start".
  it("a broken fixture stops the start with the file and the JSON path", async () => {
    build();
    const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-broken-"));
    dirs.push(dir);
    writeFileSync(
      join(dir, "bad.json"),
      JSON.stringify({ project: { id: "bad" }, locations: [{ id: "loc_x" }] }),
    );
    const started = launch("node", ["dist/main.js"], {
      LOYALTY_MOCK_FIXTURES_DIR: dir,
      LOYALTY_MOCK_PORT: "0",
    });
    expect((await started.exited).code).toBe(2);
    expect(started.stderr()).toMatch(
      /^loyalty-mock: Invalid value for LOYALTY_MOCK_FIXTURES_DIR: ".*"; .*bad\.json: \$\.locations\[0\]\.name: is required; see README "Fixtures"\n$/,
    );
  });

  it("a bad setting stops the start naming the variable", async () => {
    build();
    const started = launch("node", ["dist/main.js"], { LOYALTY_MOCK_PORT: "seventy" });
    expect((await started.exited).code).toBe(2);
    expect(started.stderr()).toBe(
      'loyalty-mock: Invalid value for LOYALTY_MOCK_PORT: "seventy"; expected a whole number from 0 to 65535\n',
    );
  });
});

// README.md, "Run it, test it": `npm ci && npm start` on a fresh clone (npm ci and npm test are what .ci/run runs).
describe("npm start, the quick start of the README", () => {
  it("builds if needed and serves the default fixtures on PORT", async () => {
    const port = await freePort();
    const started = launch("npm", ["start", "--silent"], {
      LOYALTY_MOCK_PORT: String(port),
      LOYALTY_MOCK_LOG_LEVEL: "warn",
    });
    try {
      // Its own start line names the port, so the answers below are its, not another process's.
      expect((await listeningOn(started, 60_000)).port).toBe(port);
      await waitForHttp(`http://127.0.0.1:${port}/`, started, 60_000);
      const res = await fetch(`http://127.0.0.1:${port}/v1/locations/loc_demo_circle`, { headers: KEYS });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { object: string }).object).toBe("location");
    } finally {
      killGroup(started, "SIGTERM");
      await started.exited;
    }
  }, 90_000);
});
