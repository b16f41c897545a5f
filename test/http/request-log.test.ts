import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { DEFAULTS } from "../../src/config/settings.js";
import { baseApp, finishApp } from "../../src/http/app.js";
import { createApp, createRegistry } from "../../src/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { createLogger, type LogLevel } from "../../src/platform/logger.js";
import { send } from "../helpers/http.js";
import { DEMO_KEYS, defaultDocuments } from "../helpers/world.js";

/**
 * An app whose logger writes into memory. A line is written when the response closes, which may come just after the
 * client has the answer: `records(count)` waits (up to 10 s, far past any exchange) until that many lines are in.
 */
function loggedApp(level: LogLevel) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split("\n"));
      done();
    },
  });
  const registry = createRegistry({ clock: new ManualClock(), documents: defaultDocuments() });
  const app = createApp({ registry, logger: createLogger({ level, destination }) });
  const records = async (count = 1) => {
    await vi.waitUntil(() => lines.length >= count, { timeout: 10_000, interval: 5 });
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  return { app, lines, records };
}

const SECRETS = {
  ...DEMO_KEYS,
  Authorization: "Bearer sekrit-bearer",
  "X-Service-OAuth": "sekrit-service",
  "X-Mock-Admin-Token": "sekrit-admin",
};

describe("the request log", () => {
  it("writes one flat line per request at info: id, method, url, status, time; no headers", async () => {
    const { app, records } = loggedApp("info");
    const res = await send(app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS });
    expect(res.status).toBe(200);
    const logged = await records();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toEqual({
      level: 30,
      time: expect.any(Number),
      service: "loyalty-mock",
      reqId: res.headers["x-request-id"],
      method: "GET",
      url: "/v1/locations/loc_demo_circle",
      statusCode: 200,
      responseTime: expect.any(Number),
      msg: "request completed",
    });
  });

  it("logs 4xx at warn with the client's own X-Request-Id beside ours, never instead of it", async () => {
    const { app, records } = loggedApp("info");
    const res = await send(app, {
      method: "GET",
      path: "/v1/locations/loc_nope?x=1",
      headers: { ...DEMO_KEYS, "X-Request-Id": "client-chosen" },
    });
    expect(res.status).toBe(404);
    const [line] = await records();
    expect(line).toMatchObject({
      level: 40,
      reqId: res.body.request_id,
      clientRequestId: "client-chosen",
      url: "/v1/locations/loc_nope?x=1",
      statusCode: 404,
    });
  });

  it("logs an unexpected failure at error with its stack, which the client never sees", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = baseApp({ ...DEFAULTS, logger: createLogger({ level: "info", destination }) });
    app.get("/boom", () => {
      throw new Error("secret internal detail");
    });
    finishApp(app, DEFAULTS.bodyLimit);
    const res = await send(app, { method: "GET", path: "/boom" }, () => undefined);
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain("secret internal detail");
    await vi.waitUntil(() => lines.length > 0, { timeout: 10_000, interval: 5 });
    const line = JSON.parse(lines[0] ?? "{}");
    expect(line).toMatchObject({ level: 50, statusCode: 500, reqId: res.body.request_id });
    expect(line.err.message).toBe("secret internal detail");
    expect(line.err.stack).toContain("Error: secret internal detail");
  });

  it("adds the headers at debug, with every secret redacted", async () => {
    const { app, lines, records } = loggedApp("debug");
    await send(app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: SECRETS });
    const [line] = await records();
    expect(line?.req).toMatchObject({
      headers: {
        "x-app-id": "demo-app-id",
        "x-app-token": "[redacted]",
        authorization: "[redacted]",
        "x-service-oauth": "[redacted]",
        "x-mock-admin-token": "[redacted]",
      },
    });
    const text = lines.join("\n");
    for (const secret of ["demo-app-token", "sekrit-bearer", "sekrit-service", "sekrit-admin"])
      expect(text).not.toContain(secret);
  });

  it("writes nothing below its level, and a silent logger nothing at all", async () => {
    const quiet = loggedApp("warn");
    await send(quiet.app, { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS });
    await send(quiet.app, { method: "GET", path: "/v1/locations/loc_nope", headers: DEMO_KEYS });
    expect((await quiet.records()).map((line) => line.statusCode)).toEqual([404]);
    const silent = loggedApp("silent");
    await send(silent.app, { method: "GET", path: "/v1/locations/loc_nope", headers: DEMO_KEYS });
    // A silent logger does not even listen for the response's end (startRequestLog), so there is nothing to wait for.
    expect(await silent.records(0)).toEqual([]);
  });
});
