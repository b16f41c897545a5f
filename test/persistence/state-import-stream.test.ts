import { request as httpRequest } from "node:http";
import type { Express } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/index.js";
import { useServer } from "../helpers/listen.js";
import { buildWorld } from "../helpers/world.js";

const STATE = "/__mock/projects/demo/state";
const listen = useServer();

/** PUTs `text` over a real socket in chunks of `size` bytes, without Content-Length (chunked), as a big upload. */
async function putChunked(app: Express, text: string, size: number) {
  const { port } = await listen(app);
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: "PUT",
        path: STATE,
        headers: { "Content-Type": "application/json" },
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          data += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) }));
      },
    );
    req.on("error", reject);
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += size) req.write(bytes.subarray(at, at + size));
    req.end();
  });
}

describe("PUT state, read as it arrives", () => {
  it("imports a document sent in small chunks, keys named __proto__ kept as sent", async () => {
    const world = buildWorld();
    const exported = (await request(world.app).get(STATE)).text;
    // A metadata key named __proto__, as JSON.parse keeps it: an own property, not a prototype.
    const text = exported.replace('"metadata":{', '"metadata":{"__proto__":{"tier":"gold"},');
    expect(text).not.toBe(exported);
    const res = await putChunked(world.app, text, 997);
    expect(res.status).toBe(200);
    const after = (await request(world.app).get(STATE)).text;
    // Stringified only as an own property: had it set the record's prototype, it would be gone.
    expect(after).toContain('"metadata":{"__proto__":{"tier":"gold"},');
  });

  it("refuses a chunked body past the state limit with 413, counted as it arrives", async () => {
    const world = buildWorld();
    const app = createApp({ registry: world.registry, stateBodyLimit: 4000 });
    const exported = (await request(app).get(STATE)).text;
    const res = await putChunked(app, exported, 1000);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      key: "query_too_large",
      details: "Request body exceeds the limit of 4000 bytes",
    });
    expect(world.registry.get("demo")).toBe(world.demo);
  });

  it("refuses a document cut short with 400, changing nothing", async () => {
    const world = buildWorld();
    const exported = (await request(world.app).get(STATE)).text;
    const res = await putChunked(world.app, exported.slice(0, -1), 4096);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      key: "invalid_payload",
      details: "Request body is not valid JSON: Unexpected end of JSON input",
    });
    expect(world.registry.get("demo")).toBe(world.demo);
  });
});

describe("PUT state, bodies left to body-parser", () => {
  it("answers a body that is not an object or array, and one with a byte order mark, as body-parser does", async () => {
    const world = buildWorld();
    const notObject = await putChunked(world.app, ' "demo"', 3);
    expect(notObject.status).toBe(400);
    expect(notObject.body).toMatchObject({
      key: "invalid_payload",
      // body-parser's strict mode: JSON.parse's message for the text with everything from "demo" on spoiled.
      details: `Request body is not valid JSON: Unexpected token '"', " "demo"" is not valid JSON`,
    });
    const exported = (await request(world.app).get(STATE)).text;
    const withMark = await putChunked(world.app, `\uFEFF${exported}`, 65536);
    expect(withMark.status).toBe(200);
  });
});
