import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { ManualClock } from "../../src/platform/clock.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { assertErrorBody } from "../helpers/contract.js";
import { useServer } from "../helpers/listen.js";
import { getDemoLocation, type RawResponse, rawRequest } from "../helpers/raw-http.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * The limits the HTTP server enforces before the app sees a request, over real sockets: the size of a request's
 * head, and how long a client may take to send its head and its whole request. Slow clients are cut off with
 * 408 and cannot hold the server: everyone else is served meanwhile.
 */

const HEADERS_TIMEOUT_MS = 400;
const REQUEST_TIMEOUT_MS = 800;
const HEADER_BYTES = 4096;

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    documents: defaultDocuments(),
    clock: new ManualClock(),
    connectionLimits: {
      headerBytes: HEADER_BYTES,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    },
  });
});
afterAll(() => server.close());

const KEYS = "X-App-Id: demo-app-id\r\nX-App-Token: demo-app-token\r\n";

/** A GET whose head (request line, headers, blank line) is exactly `bytes` long. */
function headOfSize(bytes: number): string {
  const start = `GET /v1/locations/loc_demo_circle HTTP/1.1\r\nHost: 127.0.0.1\r\n${KEYS}X-Pad: `;
  return `${start}${"p".repeat(bytes - start.length - 4)}\r\n\r\n`;
}

function expectErrorObject(response: RawResponse, status: number, key: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(response.headers["x-request-id"]).toMatch(/^v-[0-9a-f]{18}$/);
  expect(response.body).toMatchObject({ code: status, key, request_id: response.headers["x-request-id"] });
  assertErrorBody(response.body);
}

/** Opens a socket, writes the bytes, and resolves with what came back once the server closed it. */
function stall(bytes: string): Promise<{ text: string; closedAfterMs: number; socket: Socket }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(server.port, "127.0.0.1");
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve({ text, closedAfterMs: Date.now() - started, socket }));
    socket.write(bytes);
  });
}

function parse(text: string): RawResponse {
  const [head = "", body = ""] = text.split("\r\n\r\n");
  const headers = Object.fromEntries(
    head
      .split("\r\n")
      .slice(1)
      .map((line) => [
        line.slice(0, line.indexOf(":")).toLowerCase(),
        line.slice(line.indexOf(":") + 1).trim(),
      ]),
  );
  return { status: Number(head.slice(9, 12)), headers, text: body, body: JSON.parse(body) };
}

async function serves(): Promise<void> {
  expect((await getDemoLocation(server.port)).status).toBe(200);
}

describe("HEADER_LIMIT_BYTES", () => {
  it("a head of exactly the limit is read; a larger one is 431 in the error object", async () => {
    expect(headOfSize(HEADER_BYTES)).toHaveLength(HEADER_BYTES);
    expect((await rawRequest(server.port, Buffer.from(headOfSize(HEADER_BYTES)))).status).toBe(200);
    const over = await rawRequest(server.port, Buffer.from(headOfSize(HEADER_BYTES + 64)));
    expectErrorObject(over, 431, "request_header_fields_too_large");
    expect((over.body as { details: string }).details).toContain(`${HEADER_BYTES} bytes`);
  });

  it("the default (16 384 bytes) holds when nothing is configured", async () => {
    const plain = await startServer({ port: 0, documents: defaultDocuments(), clock: new ManualClock() });
    try {
      expect((await rawRequest(plain.port, Buffer.from(headOfSize(16_384)))).status).toBe(200);
      const over = await rawRequest(plain.port, Buffer.from(headOfSize(16_384 + 64)));
      expectErrorObject(over, 431, "request_header_fields_too_large");
    } finally {
      await plain.close();
    }
  });
});

describe("HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS: slow clients", () => {
  it("a head sent in pieces within the limit is served", async () => {
    const head = headOfSize(300);
    const response = await new Promise<string>((resolve) => {
      const socket = connect(server.port, "127.0.0.1");
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk;
        if (text.includes("loc_demo_circle")) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.write(head.slice(0, 100));
      // A twentieth of the limit between the pieces: a busy machine may delay the second a good deal, not 20 times.
      setTimeout(() => socket.write(head.slice(100)), HEADERS_TIMEOUT_MS / 20);
    });
    expect(response.startsWith("HTTP/1.1 200")).toBe(true);
  });

  it("a head that stalls is cut off with 408 once HEADERS_TIMEOUT_MS has passed", async () => {
    const { text, closedAfterMs } = await stall(
      `GET /v1/locations/loc_demo_circle HTTP/1.1\r\nHost: x\r\n${KEYS}`,
    );
    expect(closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expectErrorObject(parse(text), 408, "request_timeout");
  });

  it("a body that stalls is cut off with 408 once REQUEST_TIMEOUT_MS has passed, changing nothing", async () => {
    const before = JSON.stringify(exportProject(server.registry.get("demo")));
    const body = '{"event":"cart_abandoned","customer":{"source_id":"slow@example.com"}}';
    const { text, closedAfterMs } = await stall(
      `POST /v1/events HTTP/1.1\r\nHost: x\r\n${KEYS}Content-Type: application/json\r\nContent-Length: ${body.length + 10}\r\n\r\n${body}`,
    );
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expectErrorObject(parse(text), 408, "request_timeout");
    expect(JSON.stringify(exportProject(server.registry.get("demo")))).toBe(before);
    await serves();
  });

  it("a hundred clients dribbling a byte at a time are all cut off, and everyone else is served meanwhile", async () => {
    const sockets: Socket[] = [];
    const closed = Array.from(
      { length: 100 },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect(server.port, "127.0.0.1");
          sockets.push(socket);
          socket.on("error", () => undefined);
          socket.on("close", () => resolve());
          const bytes = `GET /v1/locations/loc_demo_circle HTTP/1.1\r\nHost: x\r\nX-Slow: ${"z".repeat(1000)}`;
          let at = 0;
          const drip = setInterval(() => {
            if (socket.destroyed || at >= bytes.length) clearInterval(drip);
            else socket.write(bytes[at++] as string);
          }, 20);
          socket.on("close", () => clearInterval(drip));
        }),
    );
    for (let i = 0; i < 20; i++) await serves();
    await Promise.all(closed);
    expect(sockets.every((socket) => socket.destroyed)).toBe(true);
    // The server may not have seen the last served connection's close yet when its answer has arrived here (a
    // busy machine widens that moment): every connection must be gone within ten seconds.
    const connections = () =>
      new Promise<number>((resolve) => server.server.getConnections((_e, n) => resolve(n)));
    await vi.waitUntil(async () => (await connections()) === 0, { timeout: 10_000, interval: 20 });
  });
});

describe("createHttpServer, for those who serve createApp themselves", () => {
  const listen = useServer();
  it("is exported by the package and gives its server the same protections", async () => {
    const { createApp, createHttpServer, createRegistry } = await import("../../src/index.js");
    const app = createApp({
      registry: createRegistry({ clock: new ManualClock(), documents: defaultDocuments() }),
    });
    const own = createHttpServer(app, { limits: { headerBytes: 2048 } });
    const { port } = await listen(own);
    const over = await rawRequest(port, Buffer.from(headOfSize(2048 + 64)));
    expectErrorObject(over, 431, "request_header_fields_too_large");
    const bad = await rawRequest(port, Buffer.from("GET / HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n"));
    expectErrorObject(bad, 400, "bad_request");
  });
});
