import { createServer, IncomingMessage, type RequestListener, type Server, ServerResponse } from "node:http";
import { setFlagsFromString } from "node:v8";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createHttpServer } from "../../src/index.js";
import { validateAny } from "../helpers/contract.js";
import { useServer } from "../helpers/listen.js";
import { NO_TRICKS, SPEED_TRICK_VARIANTS } from "../helpers/speed-tricks.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * createHttpServer has Node build an Express app's requests and responses with the app's prototypes, so Express's
 * own Object.setPrototypeOf on each request finds nothing to change (http/fast/prototypes.ts). These tests hold it
 * to that, and hold the server, with every speed trick and with each switched off, to answering and journaling
 * exactly as the ordinary path: an app without any trick, on a server Node builds with its own classes.
 */

const useListening = useServer();
const listen = async (server: Server): Promise<string> => (await useListening(server)).url;

const close = (server: Server) => new Promise((resolve) => server.close(resolve));

describe("the classes Node builds requests and responses with", () => {
  it("are the app's prototypes for an Express app, and still Node's messages", async () => {
    const { app } = buildWorld();
    const seen: { request: boolean; response: boolean; messages: boolean }[] = [];
    // The app itself, watched: the same function and prototypes, so createHttpServer treats it as the app.
    const watched = Object.assign(
      (req: IncomingMessage, res: ServerResponse) => {
        seen.push({
          request: Object.getPrototypeOf(req) === app.request,
          response: Object.getPrototypeOf(res) === app.response,
          messages: req instanceof IncomingMessage && res instanceof ServerResponse,
        });
        app(req, res);
      },
      { request: app.request, response: app.response },
    );
    const server = createHttpServer(watched);
    const base = await listen(server);
    try {
      const res = await fetch(`${base}/v1/locations/loc_demo_circle`, { headers: DEMO_KEYS });
      expect(res.status).toBe(200);
      expect(seen).toEqual([{ request: true, response: true, messages: true }]);
    } finally {
      await close(server);
    }
  });

  it("keep their fields in fixed shapes, not in hash tables, to the end of the exchange", async () => {
    // V8's own check, as the objects' shapes cannot be seen from JavaScript (http/fast/prototypes.ts, NEVER).
    setFlagsFromString("--allow-natives-syntax");
    const fastProperties = new Function("o", "return %HasFastProperties(o)") as (o: object) => boolean;
    const { app } = buildWorld();
    const seen: boolean[][] = [];
    const watched = Object.assign(
      (req: IncomingMessage, res: ServerResponse) => {
        const shapes = [fastProperties(req), fastProperties(res)];
        seen.push(shapes);
        res.on("close", () => shapes.push(fastProperties(req), fastProperties(res)));
        app(req, res);
      },
      { request: app.request, response: app.response },
    );
    const server = createHttpServer(watched);
    const base = await listen(server);
    try {
      for (const path of ["/v1/locations/loc_demo_circle", "/v1/locations/loc_nowhere"]) {
        const res = await fetch(`${base}${path}`, { headers: DEMO_KEYS });
        await res.text();
      }
      const res = await fetch(`${base}/v1/loyalties/camp_demo_loyalty/members`, {
        method: "POST",
        headers: { ...DEMO_KEYS, "Content-Type": "application/json" },
        body: JSON.stringify({ customer: { source_id: "shape@example.com" } }),
      });
      expect(res.status).toBe(200);
      await res.text();
      await vi.waitFor(() => expect(seen.every((shapes) => shapes.length === 4)).toBe(true));
      expect(seen).toEqual([
        [true, true, true, true],
        [true, true, true, true],
        [true, true, true, true],
      ]);
    } finally {
      await close(server);
    }
  });

  it("are Node's own for an Express app that switched the trick off", async () => {
    const { app } = buildWorld({ speedTricks: { prototypes: false } });
    const prototypes: unknown[] = [];
    const watched = Object.assign(
      (req: IncomingMessage, res: ServerResponse) => {
        prototypes.push(Object.getPrototypeOf(req), Object.getPrototypeOf(res));
        app(req, res);
      },
      { request: app.request, response: app.response, locals: app.locals },
    );
    const server = createHttpServer(watched);
    const base = await listen(server);
    try {
      const res = await fetch(`${base}/v1/locations/loc_demo_circle`, { headers: DEMO_KEYS });
      expect(res.status).toBe(200);
      expect(prototypes).toEqual([IncomingMessage.prototype, ServerResponse.prototype]);
    } finally {
      await close(server);
    }
  });

  it("are Node's own for any other listener", async () => {
    const prototypes: unknown[] = [];
    const listener: RequestListener = (req, res) => {
      prototypes.push(Object.getPrototypeOf(req), Object.getPrototypeOf(res));
      res.end("ok");
    };
    const server = createHttpServer(listener);
    const base = await listen(server);
    try {
      expect(await (await fetch(base)).text()).toBe("ok");
      expect(prototypes).toEqual([IncomingMessage.prototype, ServerResponse.prototype]);
    } finally {
      await close(server);
    }
  });
});

interface Step {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Adds the bearer token the same server issued in an earlier step. */
  bearer?: boolean;
}

const JSON_TYPE = { "Content-Type": "application/json" };
const FORM_TYPE = { "Content-Type": "application/x-www-form-urlencoded" };

/** Every operation, succeeding and refused, with bodies of each kind. */
const STEPS: Step[] = [
  { method: "GET", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS },
  { method: "HEAD", path: "/v1/locations/loc_demo_circle", headers: DEMO_KEYS },
  { method: "GET", path: "/v1/locations/loc_nowhere", headers: DEMO_KEYS },
  { method: "GET", path: "/v1/locations/loc_demo_circle" },
  {
    method: "POST",
    path: "/v1/oauth/token",
    headers: { ...DEMO_KEYS, ...FORM_TYPE },
    body: "grant_type=client_credentials&scope=api",
  },
  {
    method: "POST",
    path: "/v1/loyalties/camp_demo_loyalty/members",
    headers: { ...DEMO_KEYS, ...JSON_TYPE },
    body: JSON.stringify({ customer: { source_id: "proto@example.com", name: "Proto" }, metadata: { a: 1 } }),
  },
  {
    method: "POST",
    path: "/v1/loyalties/camp_demo_loyalty/members",
    headers: { ...DEMO_KEYS, ...JSON_TYPE },
    body: '{"customer": ',
  },
  {
    method: "POST",
    path: "/v1/loyalties/camp_demo_loyalty/members",
    headers: { ...DEMO_KEYS, "Content-Type": "text/plain" },
    body: "customer",
  },
  {
    method: "POST",
    path: "/v1/events",
    headers: { ...DEMO_KEYS, ...JSON_TYPE },
    body: JSON.stringify({
      event: "user_subscribed",
      customer: { source_id: "proto@example.com" },
      metadata: { plan: "pro" },
    }),
  },
  {
    method: "POST",
    path: "/v2/loyalties/tier-structures/lts_d0000000000000001/tiers",
    headers: { ...DEMO_KEYS, ...JSON_TYPE },
    body: JSON.stringify({
      name: "Gold",
      qualification_rules: { type: "POINTS", min_value: 5000, max_value: 9999 },
    }),
    bearer: true,
  },
  {
    method: "DELETE",
    path: "/v2/loyalties/incentives/linc_d0000000000000001",
    headers: DEMO_KEYS,
    bearer: true,
  },
  {
    method: "DELETE",
    path: "/v2/loyalties/incentives/linc_d0000000000000001",
    headers: DEMO_KEYS,
    bearer: true,
  },
  { method: "PUT", path: "/v1/events", headers: DEMO_KEYS },
  { method: "GET", path: "/v1/nothing-here" },
];

/**
 * What may differ between two servers' answers to the same request: random ids, tokens and dates; in the
 * journal also the port in the Host header and the time taken.
 */
function masked(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => masked(item));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, k)]));
  if (typeof value === "string" && (/(^|_)id$/.test(key) || key === "access_token" || key === "url"))
    return "<varies>";
  if (key === "host" || key === "duration_ms") return "<varies>";
  return value;
}

/** The demo project's journal after the steps, as the control API shows it. */
async function journal(base: string): Promise<unknown[]> {
  const res = await fetch(`${base}/__mock/projects/demo/requests`);
  expect(res.status).toBe(200);
  const { requests } = (await res.json()) as { requests: unknown[] };
  return requests.map((entry) => masked(entry));
}

async function run(base: string) {
  const answers: unknown[] = [];
  let token = "";
  for (const step of STEPS) {
    const headers = { ...step.headers, ...(step.bearer && { Authorization: `Bearer ${token}` }) };
    const res = await fetch(`${base}${step.path}`, {
      method: step.method,
      headers,
      ...(step.body !== undefined && { body: step.body }),
    });
    const text = await res.text();
    const body = text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>);
    const requestId = res.headers.get("x-request-id");
    if (step.path === "/v1/oauth/token" && res.status === 200) token = String(body?.access_token);
    if (body !== undefined) validateAny(step.method, step.path, res.status, body);
    answers.push({
      step: `${step.method} ${step.path}`,
      status: res.status,
      contentType: res.headers.get("content-type"),
      contentLength: res.headers.get("content-length"),
      allow: res.headers.get("allow"),
      connection: res.headers.get("connection"),
      // Present on every answer, and the error object's request_id where there is one.
      requestId: requestId !== null && (body?.request_id ?? requestId) === requestId,
      body: masked(body),
    });
  }
  return answers;
}

describe.each(SPEED_TRICK_VARIANTS)("a server with %s", (_name, speedTricks) => {
  const servers: Server[] = [];

  beforeAll(() => {
    servers.push(
      createHttpServer(buildWorld({ speedTricks }).app),
      createServer(buildWorld({ speedTricks: NO_TRICKS }).app),
    );
  });
  afterAll(async () => {
    await Promise.all(servers.map(close));
  });

  it("answers and journals every operation exactly as the ordinary path", async () => {
    const [ours, plain] = servers as [Server, Server];
    const plainBase = await listen(plain);
    const oursBase = await listen(ours);
    const expected = await run(plainBase);
    const actual = await run(oursBase);
    expect(actual).toEqual(expected);
    // The steps did what they say: each operation succeeded once and each kind of refusal happened.
    expect(expected.map((answer) => (answer as { status: number }).status)).toEqual([
      200, 200, 404, 401, 200, 200, 400, 415, 200, 200, 200, 404, 405, 404,
    ]);
    const expectedJournal = await journal(plainBase);
    expect(await journal(oursBase)).toEqual(expectedJournal);
    // Every step that named the demo project's keys: all but the one without credentials and the unknown path.
    expect(expectedJournal).toHaveLength(12);
  });
});
