import { createServer, type Server } from "node:http";
import type { Express } from "express";
import request from "supertest";
import { expect, onTestFinished } from "vitest";
import { validateAny } from "./contract.js";

const listening = new WeakMap<Express, Promise<Server>>();

/**
 * The app behind a server that listens until the end of the running test, started at its first request, for
 * supertest to send to. Given the app itself, supertest starts and stops a server for every request: about 0.8 ms
 * of CPU each, half of what a plain request costs, over the fast tier's 5,600 such requests. Outside a test (in a
 * hook) there is no end to stop it at, so the app is handed over as it is. The server listens as supertest's own
 * does (port 0 on every address), so requests reach the app from the same address.
 */
export function served(app: Express): Promise<Express | Server> {
  const known = listening.get(app);
  if (known) return known;
  const server = createServer(app);
  try {
    onTestFinished(() => {
      listening.delete(app);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
  } catch {
    return Promise.resolve(app);
  }
  const started = new Promise<Server>((resolve) => server.listen(0, () => resolve(server)));
  listening.set(app, started);
  return started;
}

export interface Call {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";
  path: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON (or as a form when `form` is set); a string is sent as it is. */
  body?: unknown;
  form?: boolean;
}

/**
 * Sends one request to the app over real HTTP (supertest) and checks what every response of the emulator must
 * satisfy: JSON with charset, a request id header, and a body valid against the public contract for its
 * operation and status (errors included), the generally available Loyalty v2's answers against its own (the body
 * sent says which form a tier request is); control API calls pass the control API's own validator.
 */
export async function send(
  app: Express,
  call: Call,
  validate: (
    method: string,
    path: string,
    status: number,
    body: unknown,
    sent?: unknown,
  ) => void = validateAny,
): Promise<request.Response> {
  let req = request(await served(app))[call.method.toLowerCase() as "get"](call.path);
  for (const [name, value] of Object.entries(call.headers ?? {})) req = req.set(name, value);
  if (call.form) req = req.type("form");
  if (call.body !== undefined) req = req.send(call.body as object);
  const res = await req;

  expect(res.headers["x-request-id"]).toMatch(/^v-[0-9a-f]{18}$/);
  if (res.status === 204) {
    // No content: nothing to be JSON (the control API's deletions of webhooks and deliveries).
    expect(res.text ?? "").toBe("");
    expect(res.headers["content-type"]).toBeUndefined();
    validate(call.method, call.path.split("?")[0] ?? call.path, res.status, undefined);
  } else if (call.method !== "HEAD") {
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    validate(call.method, call.path.split("?")[0] ?? call.path, res.status, res.body, call.body);
  }
  if (res.status >= 400 && call.method !== "HEAD") {
    expect(res.body.code).toBe(res.status);
    expect(res.body.request_id).toBe(res.headers["x-request-id"]);
  }
  return res;
}

/** Asserts an error response: status, key, message and details as given, and nothing unexpected. */
export function expectError(
  res: request.Response,
  status: number,
  expected: { key?: string; message?: string; details?: string | RegExp; [field: string]: unknown },
): void {
  expect(res.status).toBe(status);
  const { details, ...rest } = expected;
  expect(res.body).toMatchObject({ code: status, ...rest });
  if (details instanceof RegExp) expect(res.body.details).toMatch(details);
  else if (details !== undefined) expect(res.body.details).toBe(details);
}
