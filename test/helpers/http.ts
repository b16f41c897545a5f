import type { Express } from "express";
import request from "supertest";
import { expect } from "vitest";
import { validateAny } from "./contract.js";

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
 * operation and status (errors included); control API calls pass the control API's own validator.
 */
export async function send(
  app: Express,
  call: Call,
  validate: (method: string, path: string, status: number, body: unknown) => void = validateAny,
): Promise<request.Response> {
  let req = request(app)[call.method.toLowerCase() as "get"](call.path);
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
    validate(call.method, call.path.split("?")[0] ?? call.path, res.status, res.body);
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
