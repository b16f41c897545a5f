import { expect } from "vitest";
import { control } from "./control.js";
import { send } from "./http.js";

type App = Parameters<typeof send>[0];

/** A token of scope api for the given key pair, over HTTP. */
export async function tokenFor(app: App, keys: Record<string, string>): Promise<string> {
  const res = await send(app, {
    method: "POST",
    path: "/v1/oauth/token",
    headers: keys,
    form: true,
    body: "grant_type=client_credentials&scope=api",
  });
  expect(res.status).toBe(200);
  return res.body.access_token;
}

/** A call that needs nothing but a working bearer token: reading demo's circle location. */
export function withToken(app: App, token: string) {
  return send(app, {
    method: "GET",
    path: "/v1/locations/loc_demo_circle",
    headers: { Authorization: `Bearer ${token}` },
  });
}

export function moveClock(app: App, project: string, body: unknown) {
  return control(app, { method: "POST", path: `/__mock/projects/${project}/clock`, body });
}
