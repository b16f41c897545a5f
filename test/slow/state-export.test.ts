import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectDocumentSchema } from "../../src/domain/projects/project-document.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { DEMO_KEYS, defaultDocuments, TINY_KEYS, tinyLoyaltyDocument } from "../helpers/world.js";

const CARDS = 100_000;
const READERS = 20;

let server: RunningServer;
const serverSockets: Socket[] = [];
const clients: Socket[] = [];

beforeAll(async () => {
  const codes = Array.from({ length: CARDS }, (_, i) => `BIG-${String(i).padStart(8, "0")}`);
  const big = projectDocumentSchema.parse(tinyLoyaltyDocument({ codes }));
  server = await startServer({ port: 0, documents: [...defaultDocuments(), big] });
  server.server.on("connection", (socket) => serverSockets.push(socket));
}, 120_000);

afterAll(async () => {
  for (const client of clients) client.destroy();
  await server.close();
});

/** Resolves once the server has stopped sending: its sockets' byte counts stay put for a while. */
async function stalled(): Promise<number> {
  let last = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = serverSockets.reduce((sum, socket) => sum + socket.bytesWritten, 0);
    if (sent === last) return sent;
    last = sent;
  }
}

describe("GET state of a big project to clients that stop reading", () => {
  it("holds a slice per client, not the export, and keeps serving others", async () => {
    const whole = JSON.stringify(
      await (await fetch(`${server.url}/__mock/projects/tiny/state`)).json(),
    ).length;
    expect(whole).toBeGreaterThan(20_000_000);
    for (let i = 0; i < READERS; i++) {
      const client = connect(server.port, "127.0.0.1");
      client.write(`GET /__mock/projects/tiny/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      client.pause();
      clients.push(client);
    }
    await stalled();
    // What the server still holds for each reader, beyond what the kernel took: about one slice, never the rest.
    const held = serverSockets.map((socket) => socket.writableLength);
    expect(held.length).toBeGreaterThanOrEqual(READERS);
    expect(Math.max(...held)).toBeLessThan(1024 * 1024);

    const location = await fetch(`${server.url}/v1/locations/loc_demo_circle`, { headers: DEMO_KEYS });
    expect(location.status).toBe(200);
    const card = await fetch(`${server.url}/v1/loyalties/camp_tiny/members`, {
      method: "POST",
      headers: { ...TINY_KEYS, "Content-Type": "application/json" },
      body: JSON.stringify({ customer: { source_id: "reader@example.com" } }),
    });
    expect(card.status).toBe(200);
  }, 120_000);
});
