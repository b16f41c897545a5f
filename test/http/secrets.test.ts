import { readdirSync, readFileSync, statSync } from "node:fs";
import { type AddressInfo, connect, createServer } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretToken } from "../../src/platform/ids.js";
import { createLogger } from "../../src/platform/logger.js";
import { secureEqual } from "../../src/platform/secure-compare.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { ROOT } from "../helpers/process.js";
import { type RawResponse, rawRequest } from "../helpers/raw-http.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * Secrets: the key secret, bearer tokens (in Authorization and X-Service-OAuth) and the admin token never reach
 * the logs or the journal, whatever way they are sent; secrets are compared in constant time and made from the
 * CSPRNG; an unknown app id and a wrong secret get the same answer; the server listens on loopback by default.
 */

const ADMIN = "admin-secret-7f3a";
const WRONG_SECRET = "wrong-secret-c41d";
const WRONG_TOKEN = "wrong-bearer-token-9b2e00000000000000000000";

describe("secrets never reach the logs or the journal", () => {
  let server: RunningServer;
  const lines: string[] = [];
  const issued: string[] = [];

  beforeAll(async () => {
    const logger = createLogger({
      level: "trace",
      destination: { write: (line: string) => lines.push(line) },
    });
    server = await startServer({ port: 0, documents: defaultDocuments(), logger, adminToken: ADMIN });
  });
  afterAll(() => server.close());

  const send = (method: string, target: string, headers: [string, string][], body?: string) =>
    rawRequest(server.port, { method, target, headers, ...(body !== undefined && { body }) });

  it("sends secrets every way a client can, right and wrong", async () => {
    const keys: [string, string][] = [
      ["X-App-Id", "demo-app-id"],
      ["X-App-Token", "demo-app-token"],
    ];
    const form: [string, string] = ["Content-Type", "application/x-www-form-urlencoded"];
    for (let i = 0; i < 3; i++) {
      const res = await send(
        "POST",
        "/v1/oauth/token",
        [...keys, form],
        "grant_type=client_credentials&scope=api",
      );
      issued.push((res.body as { access_token: string }).access_token);
    }
    const [token, second, third] = issued as [string, string, string];
    const calls: [string, string, [string, string][]][] = [
      ["GET", "/v1/locations/loc_demo_circle", keys],
      ["GET", "/v1/locations/loc_demo_circle", [["Authorization", `Bearer ${token}`]]],
      ["GET", "/v1/locations/loc_demo_circle", [["X-Service-OAuth", second]]],
      ["GET", "/v1/locations/loc_demo_circle", [["X-Service-OAuth", `Bearer ${third}`]]],
      ["GET", "/v1/locations/loc_demo_circle", [["authorization", `bearer ${token}`]]],
      [
        "GET",
        "/v1/locations/loc_demo_circle",
        [
          ["X-App-Id", "demo-app-id"],
          ["X-App-Token", WRONG_SECRET],
        ],
      ],
      [
        "GET",
        "/v1/locations/loc_demo_circle",
        [
          ["X-App-Id", "demo-app-id"],
          ["x-app-token", "demo-app-token"],
          ["X-App-Token", WRONG_SECRET],
        ],
      ],
      ["GET", "/v1/locations/loc_demo_circle", [["Authorization", `Bearer ${WRONG_TOKEN}`]]],
      ["GET", "/v1/locations/loc_nope", [...keys, ["Authorization", `Bearer ${token}`]]],
      ["DELETE", "/v2/loyalties/incentives/linc_nope", [...keys, ["Authorization", `Bearer ${token}`]]],
      ["GET", "/__mock/projects/demo/clock", [["X-Mock-Admin-Token", ADMIN]]],
      ["GET", "/__mock/projects/demo/clock", [["X-Mock-Admin-Token", WRONG_SECRET]]],
      ["GET", "/v1/locations/loc_demo_circle", [...keys, ["X-Mock-Admin-Token", ADMIN]]],
      // Refused before routing: the raw request, secrets and all, must not be logged either.
      ["GET", "/v1/locations/loc_demo_circle", [...keys, ["X-Bad", "a\u0001b"]]],
      ["GET", "/v1/locations/loc_demo_circle", [...keys, ["X-Long", "y".repeat(20_000)]]],
      ["GET", "/v1/locations/loc_demo_circle", [...keys, ["Expect", "nothing"]]],
    ];
    for (const [method, target, headers] of calls) await send(method, target, headers);
    expect(issued.every((value) => typeof value === "string" && value.length === 43)).toBe(true);
  });

  function expectNoSecret(text: string, where: string): void {
    for (const secret of ["demo-app-token", WRONG_SECRET, WRONG_TOKEN, ADMIN, ...issued])
      expect(text.includes(secret), `${where} holds ${secret}`).toBe(false);
  }

  it("the log lines hold none of them, at level trace", () => {
    expect(lines.length).toBeGreaterThan(15);
    expectNoSecret(lines.join("\n"), "the log");
    expect(lines.join("\n")).toContain('"x-app-token":"[redacted]"');
    expect(lines.join("\n")).toContain('"authorization":"[redacted]"');
  });

  it("the journal holds none of them (headers, bodies, answers)", async () => {
    const res = await send("GET", "/__mock/projects/demo/requests", [["X-Mock-Admin-Token", ADMIN]]);
    expect((res.body as { total: number }).total).toBeGreaterThan(10);
    expectNoSecret(res.text, "the journal");
    expect(res.text).toContain('"authorization":"Bearer [redacted]"');
    expect(res.text).toContain('"access_token":"[redacted]"');
  });
});

describe("secrets are compared in constant time and made from the CSPRNG", () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
    });
  const files = sources(join(ROOT, "src")).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("no source compares a secret with == / !=; key pairs, tokens of the admin and attribution use secureEqual", () => {
    const direct =
      /\b\w*(app_?token|admin_?token|secret)\w*\s*[!=]==?|[!=]==?\s*\w*(app_?token|admin_?token|secret)\w*\b/i;
    for (const { path, text } of files)
      for (const line of text.split("\n")) {
        // Whether a secret was sent at all is no secret.
        const compared = line.replace(/\s*[!=]==?\s*(undefined|null)\b|\b(undefined|null)\s*[!=]==?\s*/g, "");
        expect(direct.test(compared), `${path}: ${line.trim()}`).toBe(false);
      }
    // Key secrets go through keySecretMatches (digests compared with timingSafeEqual), the admin token through
    // secureEqual.
    const users = files
      .filter(({ text }) => text.includes("secureEqual(") || text.includes("keySecretMatches("))
      .map(({ path }) => path.slice(ROOT.length));
    expect(users).toEqual(
      expect.arrayContaining([
        "src/domain/auth/authenticate.ts",
        "src/domain/auth/attribution.ts",
        "src/http/control/admin-token.ts",
      ]),
    );
    const keySecrets = files.find(({ path }) => path.endsWith("src/domain/auth/secrets.ts"))?.text ?? "";
    expect(keySecrets).toContain("digestsEqual(");
    const platform = files.find(({ path }) => path.endsWith("src/platform/secure-compare.ts"))?.text ?? "";
    expect(platform.match(/timingSafeEqual\(/g)?.length).toBe(2);
  });

  it("secureEqual hashes both sides to one length, so neither length nor prefix shows in its timing", () => {
    expect(secureEqual("demo-app-token", "demo-app-token")).toBe(true);
    expect(secureEqual("demo-app-token", "demo-app-tokeN")).toBe(false);
    expect(secureEqual("demo-app-token", "demo")).toBe(false);
    expect(secureEqual("", "")).toBe(true);
  });

  it("nothing in the server draws from Math.random; tokens are 32 random bytes, never repeated", () => {
    for (const { path, text } of files) expect(text.includes("Math.random"), path).toBe(false);
    const tokens = Array.from({ length: 2000 }, () => secretToken());
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) expect(Buffer.from(token, "base64url")).toHaveLength(32);
    // Every base64url character turns up: no bias a guesser could lean on.
    expect(new Set(tokens.join("")).size).toBe(64);
  });
});

describe("an unknown app id and a wrong secret get the same answer", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, documents: defaultDocuments() });
    // A rate limit on the project: its headers must not tell a stranger the app id exists.
    server.registry.get("demo").settings = { rate_limit: { limit: 1000, window_seconds: 60 } };
  });
  afterAll(() => server.close());

  const comparable = (res: RawResponse) => {
    const { date: _date, "x-request-id": _id, ...headers } = res.headers;
    const { request_id: _rid, ...body } = res.body as Record<string, unknown>;
    return { status: res.status, headers, body };
  };

  const operations: [string, string, string | undefined][] = [
    ["POST", "/v1/oauth/token", "grant_type=client_credentials&scope=api"],
    ["GET", "/v1/locations/loc_demo_circle", undefined],
    ["POST", "/v1/loyalties/camp_demo_loyalty/members", '{"customer":{"source_id":"x"}}'],
    ["POST", "/v1/events", '{"event":"cart_abandoned","customer":{"source_id":"x"}}'],
    ["POST", "/v2/loyalties/tier-structures/lts_d0000000000000001/tiers", '{"name":"G"}'],
    ["DELETE", "/v2/loyalties/incentives/linc_d0000000000000001", undefined],
  ];

  for (const [method, target, body] of operations) {
    it(`${method} ${target}: status, headers and body alike (but the request id)`, async () => {
      const type = target.endsWith("token") ? "application/x-www-form-urlencoded" : "application/json";
      const call = (appId: string, secret: string) =>
        rawRequest(server.port, {
          method,
          target,
          headers: [
            ["X-App-Id", appId],
            ["X-App-Token", secret],
            ...(body ? [["Content-Type", type] as [string, string]] : []),
          ],
          ...(body !== undefined && { body }),
        });
      const wrongSecret = comparable(await call("demo-app-id", WRONG_SECRET));
      const unknownId = comparable(await call("no-such-app-id", "demo-app-token"));
      expect(wrongSecret.status).toBe(401);
      expect(wrongSecret.headers["x-rate-limit-limit"]).toBeUndefined();
      expect(unknownId).toEqual(wrongSecret);
    });
  }
});

/** What a TCP connection to `host:port` meets: "connected", or the error's code (ECONNREFUSED, ...). */
function connection(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe("the server listens on loopback unless told otherwise", () => {
  // Addresses of this machine other than 127.0.0.1: 127.0.0.2 always (Linux answers the whole 127.0.0.0/8 on lo,
  // so the check never depends on the machine having a network), and the first external IPv4 address when there is
  // one. A server on every address (0.0.0.0) shows each one reaches this machine; the default server must refuse it.
  it("startServer without a host binds 127.0.0.1, and the machine's other addresses are refused", async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === "IPv4" && !address.internal)?.address;
    const others = ["127.0.0.2", ...(external ? [external] : [])];
    const everywhere = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => everywhere.listen(0, "0.0.0.0", resolve));
    const server = await startServer({ port: 0, documents: defaultDocuments() });
    try {
      expect(server.server.address()).toMatchObject({ address: "127.0.0.1" });
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      for (const other of others) {
        expect(await connection(other, (everywhere.address() as AddressInfo).port), other).toBe("connected");
        expect(await connection(other, server.port), other).toBe("ECONNREFUSED");
      }
      expect(await connection("127.0.0.1", server.port)).toBe("connected");
    } finally {
      await server.close();
      await new Promise((resolve) => everywhere.close(resolve));
    }
  });
});
