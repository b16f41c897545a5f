import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectDocumentSchema } from "../../src/domain/projects/project-document.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { defaultDocuments, TINY_KEYS, tinyLoyaltyDocument } from "../helpers/world.js";

const CARDS = 80_000;
let server: RunningServer;

beforeAll(async () => {
  const codes = Array.from({ length: CARDS }, (_, i) => `BIG-${String(i).padStart(8, "0")}`);
  const big = projectDocumentSchema.parse(tinyLoyaltyDocument({ codes }));
  server = await startServer({ port: 0, documents: [...defaultDocuments(), big] });
}, 120_000);

afterAll(async () => {
  await server.close();
});

/** Streams `bytes` to PUT state in 64 KB writes, as curl --data-binary @file would send a big export. */
function put(path: string, bytes: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}${path}`,
      { method: "PUT", headers: { "Content-Type": "application/json", "Content-Length": bytes.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    for (let at = 0; at < bytes.length; at += 65536) req.write(bytes.subarray(at, at + 65536));
    req.end();
  });
}

describe("PUT state of a big project", () => {
  it("imports an export of tens of megabytes, read as it arrives, and the project answers from it", async () => {
    const exported = Buffer.from(
      await (await fetch(`${server.url}/__mock/projects/tiny/state`)).arrayBuffer(),
    );
    expect(exported.length).toBeGreaterThan(20_000_000);
    // The same cards with points: an import that changes every card, so the answer shows it was taken whole.
    const changed = Buffer.from(
      exported.toString("utf8").replaceAll('"loyalty_card":{"points":0,', '"loyalty_card":{"points":7,'),
    );
    const res = await put("/__mock/projects/tiny/state", changed);
    expect(res.status).toBe(200);
    const project = server.registry.get("tiny");
    expect(project.vouchers.size).toBe(CARDS);
    const last = project.vouchers.get(`v_tiny${String(CARDS - 1).padStart(6, "0")}`);
    expect(last.loyalty_card?.points).toBe(7);
    const member = await fetch(`${server.url}/v1/loyalties/camp_tiny/members`, {
      method: "POST",
      headers: { ...TINY_KEYS, "Content-Type": "application/json" },
      body: JSON.stringify({ customer: { source_id: "importer@example.com" } }),
    });
    expect(member.status).toBe(200);
  }, 120_000);
});
