import type { RequestListener, Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PIPELINE_QUEUE } from "../../src/http/server/fair-turns.js";
import { createApp, createHttpServer, createRegistry } from "../../src/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * Fair turns between connections, over real sockets: one connection pipelining thousands of GETs must not make
 * another connection's request wait for all of them. The order in which the app is handed requests is what is
 * asserted (a recorder sits between the HTTP server and the app), not how long anything took.
 */

const KEYS = "X-App-Id: demo-app-id\r\nX-App-Token: demo-app-token\r\n";
const PIPELINED = 1000;

let server: Server;
let port: number;
/** The path of each request, in the order the app got them; `onHandled` lets a test act at the right moment. */
let order: string[] = [];
let parsed = 0;
let onHandled: (path: string) => void = () => undefined;

beforeAll(async () => {
  const app = createApp({
    registry: createRegistry({ clock: new ManualClock(), documents: defaultDocuments() }),
  });
  const recorder: RequestListener = (req, res) => {
    order.push(String(req.url));
    onHandled(String(req.url));
    app(req, res);
  };
  server = createHttpServer(recorder);
  // Node emits `request` as it parses each request, before the recorder above gets it (its listener is first).
  server.prependListener("request", () => {
    parsed++;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function get(path: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: x\r\n${KEYS}\r\n`;
}

/** Reads `count` answers off a socket, resolving with their status lines. */
function answers(socket: Socket, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const statuses: string[] = [];
    let rest = "";
    socket.on("data", (chunk) => {
      // A status line (12 characters) cut by a chunk's end is found with the next one; 11 kept can hold no whole one.
      const text = rest + chunk.toString("latin1");
      for (const match of text.matchAll(/HTTP\/1\.1 \d{3}/g)) statuses.push(match[0]);
      rest = text.slice(-11);
      if (statuses.length >= count && text.endsWith("}")) resolve(statuses);
    });
    socket.once("close", () => reject(new Error(`closed after ${statuses.length} answers`)));
  });
}

describe("pipelining: fair turns between connections", () => {
  it("a normal client's request is handled among a pipelining connection's, not after all of them", async () => {
    order = [];
    const normal = connect(port, "127.0.0.1");
    await new Promise((resolve) => normal.once("connect", resolve));
    const normalAnswer = answers(normal, 1);
    // The normal client sends once the server has started on the pipelined batch, so both are waiting at once.
    onHandled = (path) => {
      if (path === "/v1/locations/loc_demo_circle?n=0") normal.write(get("/v1/locations/loc_demo_polygon"));
    };
    const pipeliner = connect(port, "127.0.0.1");
    const pipelinedAnswers = answers(pipeliner, PIPELINED);
    const batch = Array.from({ length: PIPELINED }, (_, n) => get(`/v1/locations/loc_demo_circle?n=${n}`));
    pipeliner.write(batch.join(""));

    expect(await normalAnswer).toEqual(["HTTP/1.1 200"]);
    const statuses = await pipelinedAnswers;
    expect(statuses).toHaveLength(PIPELINED);
    expect(new Set(statuses)).toEqual(new Set(["HTTP/1.1 200"]));
    // Without turns the app got every pipelined request of the chunks read (hundreds) before the other one.
    const at = order.indexOf("/v1/locations/loc_demo_polygon");
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(20);
    // The pipelined requests themselves keep their order.
    const pipelined = order.filter((path) => path.includes("?n="));
    expect(pipelined).toEqual(
      Array.from({ length: PIPELINED }, (_, n) => `/v1/locations/loc_demo_circle?n=${n}`),
    );
    normal.destroy();
    pipeliner.destroy();
  });

  it("a pipelining connection is not read further while its queue is full: the backlog stays bounded", async () => {
    order = [];
    parsed = 0;
    let backlog = 0;
    onHandled = () => {
      backlog = Math.max(backlog, parsed - order.length);
    };
    const pipeliner = connect(port, "127.0.0.1");
    const done = answers(pipeliner, PIPELINED);
    pipeliner.write(Array.from({ length: PIPELINED }, () => get("/v1/locations/loc_demo_circle")).join(""));
    expect(await done).toHaveLength(PIPELINED);
    // The queue's cap, plus the rest of the chunk being parsed when it was reached (64 KiB of small requests).
    expect(backlog).toBeGreaterThanOrEqual(PIPELINE_QUEUE);
    expect(backlog).toBeLessThan(PIPELINE_QUEUE + 700);
    pipeliner.destroy();
  });
});
