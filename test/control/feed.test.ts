import type { Express } from "express";
import request from "supertest";
import { describe, expect, it, vi } from "vitest";
import { ChangeFeed, type FeedBatch, REQUEST_SUMMARIES } from "../../src/emulation/change-feed.js";
import { startServer } from "../../src/server.js";
import { useServer } from "../helpers/listen.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

const listen = useServer();
const listening = async (app: Express): Promise<string> => (await listen(app)).url;

/** Reads server-sent events off a response body as they come. */
function events(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return async function next(): Promise<{ event: string; data: unknown }> {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) return { event, data: data === undefined ? undefined : JSON.parse(data) };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the feed ended");
      buffer += decoder.decode(value, { stream: true });
    }
  };
}

describe("ChangeFeed", () => {
  it("costs nothing for a project nobody watches: no batch waits, no summary is built", () => {
    const feed = new ChangeFeed();
    let built = 0;
    feed.recordChanged("demo", "customers");
    feed.requestJournaled("demo", () => {
      built++;
      return { method: "GET", path: "/", status: 200, time_ms: 0 };
    });
    const seen: FeedBatch[] = [];
    feed.subscribe("other", (batch) => seen.push(batch));
    feed.flush();
    expect(built).toBe(0);
    expect(seen).toEqual([]);
  });

  it("coalesces a storm into one batch per window, keeping the newest summaries", async () => {
    const feed = new ChangeFeed({ delayMs: 20 });
    const seen: FeedBatch[] = [];
    feed.subscribe("demo", (batch) => seen.push(batch));
    for (let i = 0; i < 1000; i++) {
      feed.requestJournaled("demo", () => ({ method: "POST", path: `/v1/events`, status: 200, time_ms: i }));
      feed.recordChanged("demo", i % 2 ? "events" : "vouchers");
    }
    feed.announce("demo", "clock");
    // The storm was sent in one go, so it is one window: one batch, whenever the machine gets to it.
    await vi.waitUntil(() => seen.length > 0, { timeout: 10_000, interval: 5 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.topics.sort()).toEqual(["clock", "records", "requests"]);
    expect(seen[0]?.collections.sort()).toEqual(["events", "vouchers"]);
    expect(seen[0]?.requests_count).toBe(1000);
    expect(seen[0]?.requests).toHaveLength(REQUEST_SUMMARIES);
    expect(seen[0]?.requests.at(-1)?.time_ms).toBe(999);
  });

  it("close() ends every subscription, and an ended one hears nothing more", () => {
    const feed = new ChangeFeed();
    const ended: string[] = [];
    const seen: FeedBatch[] = [];
    feed.subscribe(
      "demo",
      (batch) => seen.push(batch),
      () => ended.push("demo"),
    );
    feed.announce("demo", "webhooks");
    feed.close();
    expect(ended).toEqual(["demo"]);
    expect(seen.map((b) => b.topics)).toEqual([["webhooks"]]);
    feed.announce("demo", "webhooks");
    feed.flush();
    expect(seen).toHaveLength(1);
  });
});

describe("GET /__mock/projects/{projectId}/feed", () => {
  it("streams what the operations and the control API change, coalesced", async () => {
    const { app, registry } = buildWorld();
    const url = await listening(app);
    const feed = await fetch(`${url}/__mock/projects/demo/feed`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const next = events(feed.body as ReadableStream<Uint8Array>);
    expect(await next()).toEqual({ event: "ready", data: { project_id: "demo" } });

    const member = await fetch(`${url}/v1/loyalties/camp_demo_loyalty/members`, {
      method: "POST",
      headers: { ...DEMO_KEYS, "Content-Type": "application/json" },
      body: JSON.stringify({ customer: { source_id: "feed@example.com" } }),
    });
    expect(member.status).toBe(200);
    const batch = (await next()).data as FeedBatch;
    // The assignment's notifications land in the webhook outbox (kept as not_sent with no endpoint): news too.
    expect(batch.topics.sort()).toEqual(["records", "requests", "webhooks"]);
    expect(batch.collections.sort()).toEqual(["customers", "publications", "vouchers"]);
    expect(batch.requests).toEqual([
      expect.objectContaining({
        method: "POST",
        path: "/v1/loyalties/camp_demo_loyalty/members",
        status: 200,
      }),
    ]);

    await fetch(`${url}/__mock/projects/demo/clock`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ advance_seconds: 60 }),
    });
    expect(await next()).toEqual({ event: "change", data: expect.objectContaining({ topics: ["clock"] }) });

    registry.feed.announce("demo", "webhooks");
    expect(await next()).toEqual({
      event: "change",
      data: expect.objectContaining({ topics: ["webhooks"] }),
    });

    await fetch(`${url}/__mock/projects/demo/reset`, { method: "POST" });
    const reset = (await next()).data as FeedBatch;
    expect(reset.topics).toContain("project");
  });

  it("tells every page watching a project, and none watching another", async () => {
    const { app, registry } = buildWorld();
    const url = await listening(app);
    const open = async (project: string) => {
      const next = events(
        (await fetch(`${url}/__mock/projects/${project}/feed`)).body as ReadableStream<Uint8Array>,
      );
      await next();
      return next;
    };
    const [first, second, other] = await Promise.all([open("demo"), open("demo"), open("other")]);
    registry.feed.announce("other", "faults");
    registry.feed.announce("demo", "webhooks");
    const expected = { event: "change", data: expect.objectContaining({ topics: ["webhooks"] }) };
    expect(await first()).toEqual(expected);
    expect(await second()).toEqual(expected);
    expect(await other()).toEqual({ event: "change", data: expect.objectContaining({ topics: ["faults"] }) });
  });

  it("asks for the admin token like every control call, and 404s an unknown project", async () => {
    const { app } = buildWorld({ adminToken: "s3cret" });
    const missing = await request(app).get("/__mock/projects/demo/feed");
    expect(missing.status).toBe(401);
    expect(missing.body.details).toBe("Missing X-Mock-Admin-Token header");
    const unknown = await request(app).get("/__mock/projects/nope/feed").set("X-Mock-Admin-Token", "s3cret");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ key: "not_found", resource_type: "project", resource_id: "nope" });
  });

  it("ends open feeds when the server closes, rather than holding the close", async () => {
    const running = await startServer({ port: 0, host: "127.0.0.1" });
    const feed = await fetch(`${running.url}/__mock/projects/demo/feed`);
    const next = events(feed.body as ReadableStream<Uint8Array>);
    await next();
    const started = Date.now();
    await running.close();
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(next()).rejects.toThrow("the feed ended");
  });
});
