import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { useJsonAnswers } from "../../src/http/json-response.js";

/**
 * res.json sends its common answer itself (http/json-response.ts), past res.send: the status, headers and bytes
 * must be what Express's own res.json sends, for short and long texts, multi-byte characters, HEAD, a status
 * without a body and a Content-Type set before.
 */

function app(ours: boolean) {
  const server = express();
  server.disable("x-powered-by");
  server.set("etag", false);
  if (ours) useJsonAnswers(server);
  const long = { text: "é€😀".repeat(400), list: Array.from({ length: 50 }, (_, i) => ({ i })) };
  server.get("/short", (_req, res) => {
    res.json({ id: "loc_1", name: "Zürich" });
  });
  server.get("/long", (_req, res) => {
    res.json(long);
  });
  server.get("/created", (_req, res) => {
    res.status(201).json({ ok: true });
  });
  server.get("/none", (_req, res) => {
    res.status(204).json({ dropped: true });
  });
  server.get("/typed", (_req, res) => {
    res.type("application/vnd.api+json").json({ ok: true });
  });
  server.get("/undefined", (_req, res) => {
    res.json(undefined);
  });
  return server;
}

const ours = app(true);
const express5 = app(false);

describe("res.json's own sending", () => {
  it.each(["/short", "/long", "/created", "/none", "/typed", "/undefined"])(
    "GET and HEAD %s answer as Express's res.json",
    async (path) => {
      for (const method of ["get", "head"] as const) {
        const [a, b] = await Promise.all([request(ours)[method](path), request(express5)[method](path)]);
        expect(a.status).toBe(b.status);
        expect(a.headers["content-type"]).toBe(b.headers["content-type"]);
        expect(a.headers["content-length"]).toBe(b.headers["content-length"]);
        expect(a.headers["transfer-encoding"]).toBe(b.headers["transfer-encoding"]);
        expect(a.text).toBe(b.text);
      }
    },
  );
});
