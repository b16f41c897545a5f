import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/server.js";
import { DEMO_KEYS, OTHER_KEYS } from "../helpers/world.js";

describe("fault rules on a real listening server", () => {
  let server: RunningServer;
  const url = (path: string) => `${server.url}${path}`;
  const post = (path: string, body: unknown) =>
    fetch(url(path), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startServer({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => server.close());

  it("drop closes the connection without an answer and the operation does not run", async () => {
    await post("/__mock/projects/demo/faults", {
      method: "POST",
      path: "/v1/oauth/token",
      action: "drop",
      times: 1,
    });
    const attempt = fetch(url("/v1/oauth/token"), {
      method: "POST",
      headers: { ...DEMO_KEYS, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&scope=api",
    });
    await expect(attempt).rejects.toThrow(TypeError);
    expect(server.registry.get("demo").tokens.size).toBe(0);
    const [entry] = server.registry.get("demo").journal.list({ path: "/v1/oauth/token" });
    expect(entry).toMatchObject({ status: null, response_body: null, fault: { action: "drop" } });
    // The server itself is unharmed.
    expect((await fetch(url("/v1/locations/loc_demo_circle"), { headers: DEMO_KEYS })).status).toBe(200);
  });

  it("truncate runs the operation and cuts the answer off half-way", async () => {
    await post("/__mock/projects/demo/faults", {
      method: "POST",
      path: "/v1/oauth/token",
      action: "truncate",
      times: 1,
    });
    const tokensBefore = server.registry.get("demo").tokens.size;
    const res = await fetch(url("/v1/oauth/token"), {
      method: "POST",
      headers: { ...DEMO_KEYS, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&scope=api",
    });
    expect(res.status).toBe(200);
    const declared = Number(res.headers.get("content-length"));
    expect(declared).toBeGreaterThan(100);
    await expect(res.text()).rejects.toThrow();
    expect(server.registry.get("demo").tokens.size).toBe(tokensBefore + 1);
  });

  it("latency holds the answer back; delay then answers normally", async () => {
    await post("/__mock/projects/other/faults", {
      path: "/v1/locations/{id}",
      action: "delay",
      latency_ms: 300,
      times: 1,
    });
    const started = performance.now();
    const res = await fetch(url("/v1/locations/loc_other_circle"), { headers: OTHER_KEYS });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const [entry] = server.registry.get("other").journal.list({ path: "/v1/locations/loc_other_circle" });
    expect(entry?.duration_ms).toBeGreaterThanOrEqual(290);
  });

  it("latency before an error", async () => {
    await post("/__mock/projects/other/faults", {
      path: "/v1/**",
      action: "error",
      status: 504,
      latency_ms: 200,
      times: 1,
    });
    const started = performance.now();
    const res = await fetch(url("/v1/locations/loc_other_circle"), { headers: OTHER_KEYS });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ code: 504, key: "gateway_timeout", message: "Gateway Timeout" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });
});
