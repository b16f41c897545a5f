import { connect } from "node:net";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../src/config/settings.js";
import { createHttpServer } from "../../src/http/server/http-server.js";
import { useServer } from "../helpers/listen.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * The app's entrance (http/app.ts) journals, faults and rate-limits the service's API and leaves /__mock to the
 * control API, deciding by the path as Express's `/__mock` mount does: the prefix in any case, then the path's end
 * or a slash; an absolute-form target by its path.
 */

const listen = useServer();

describe("the entrance tells the control API from the service's", () => {
  it.each(["/__mock/health", "/__MOCK/health", "/__Mock/projects/demo", "/__mock", "/__mock?x=1"])(
    "%s goes to the control API and is not journaled, credentials or not",
    async (path) => {
      const { app, demo } = buildWorld();
      const res = await request(app).get(path).set(DEMO_KEYS);
      expect(res.status).not.toBe(501);
      expect(res.headers["x-rate-limit-limit"]).toBeUndefined();
      expect(demo.journal.list()).toEqual([]);
    },
  );

  it.each(["/__mockery", "/v1/__mock", "/__moc"])(
    "%s is a path of the service's API: journaled and counted",
    async (path) => {
      const { app, demo } = buildWorld();
      const res = await request(app).get(path).set(DEMO_KEYS);
      expect(res.status).toBe(404);
      expect(res.headers["x-rate-limit-limit"]).toBeDefined();
      expect(demo.journal.list().map((entry) => entry.path)).toEqual([path]);
    },
  );

  it("an absolute-form target is judged by its path", async () => {
    const { app, demo } = buildWorld();
    const { url } = await listen(createHttpServer(app, { limits: DEFAULTS.connectionLimits }));
    const { port } = new URL(url);
    const ask = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () => {
          socket.end(
            `GET ${target} HTTP/1.1\r\nHost: x\r\nX-App-Id: ${DEMO_KEYS["X-App-Id"]}\r\nX-App-Token: ${DEMO_KEYS["X-App-Token"]}\r\nConnection: close\r\n\r\n`,
          );
        });
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk;
        });
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
    expect(await ask("http://x/__mock/health")).toMatch(/^HTTP\/1\.1 200/);
    expect(demo.journal.list()).toEqual([]);
    expect(await ask("http://x/v1/locations/loc_demo_circle")).toMatch(/^HTTP\/1\.1 200/);
    expect(demo.journal.list().map((entry) => entry.path)).toEqual(["http://x/v1/locations/loc_demo_circle"]);
  });
});
