import type fc from "fast-check";
import { afterAll, beforeAll, expect } from "vitest";
import { issueToken } from "../../src/domain/auth/tokens.js";
import type { ProjectDocument } from "../../src/domain/projects/project-document.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { realOperationsFor } from "../../src/http/operations/real-operations.js";
import { type RunningServer, type StartOptions, startServer } from "../../src/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { stringifyExact } from "../../src/platform/exact-json.js";
import { assertErrorBody, validateAny } from "../helpers/contract.js";
import { validateControl } from "../helpers/control.js";
import { type RawRequest, type RawResponse, rawRequest } from "../helpers/raw-http.js";
import { defaultDocuments } from "../helpers/world.js";
import { markState, type StateMark, unchangedSince } from "./state-mark.js";

/**
 * The generated-input suite's world and its properties. One real listening server per test file (the requests go
 * over a socket, as a client's would), over a trimmed copy of the default dataset so that reading the exported
 * state after a success and putting the baseline back stay cheap.
 */

/**
 * Cases per property: FUZZ_RUNS, else a few hundred for `npm test`; `npm run test:slow` runs 2000. FUZZ_SEED replays
 * a run (fast-check prints the seed).
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 150);
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261120);
/** Generous: a long local run (FUZZ_RUNS=100000) takes a while. */
export const FUZZ_TIMEOUT_MS = Math.max(240_000, FUZZ_RUNS * 150);

export function fuzzParameters(): fc.Parameters<unknown> {
  // A failure is shrunk to its smallest form before it is reported: that is the input a regression test keeps.
  return { numRuns: FUZZ_RUNS, seed: FUZZ_SEED };
}

const LOYALTY = "camp_demo_loyalty";

/**
 * The default dataset with three of the thousand open cards of the demo loyalty program instead of all of them:
 * every kind of card, customer, tier structure and incentive is still there, at a fraction of the export size.
 */
export function trimmedDocuments(): ProjectDocument[] {
  return defaultDocuments().map((document) => {
    let open = 0;
    const vouchers = document.vouchers.filter((voucher) => {
      const special =
        voucher.campaign_id !== LOYALTY ||
        voucher.holder_id ||
        voucher.active === false ||
        voucher.start_date ||
        voucher.expiration_date;
      return special || open++ < 3;
    });
    return { ...document, vouchers };
  });
}

export interface FuzzWorld {
  server: RunningServer;
  port: number;
  /** A bearer token with scope api of the demo project, part of the baseline state. */
  demoToken: string;
  /** Every project's exported state (and fault rules) as one string, to read what a request stored. */
  snapshot(): string;
  /** The state now, cheaply (see state-mark.ts), to tell later whether anything changed. */
  mark(): StateMark;
  /** Whether every project's state and fault rules are as they were at `mark`. */
  unchangedSince(mark: StateMark): boolean;
  /** Puts every project back to the baseline (removing projects added since, re-adding removed ones). */
  restore(): void;
  /** Resolves once the server has seen every connection close (the journal writes then). */
  connectionsClosed(): Promise<void>;
  close(): Promise<void>;
}

export async function fuzzWorld(options: Partial<StartOptions> = {}): Promise<FuzzWorld> {
  const server = await startServer({
    port: 0,
    documents: trimmedDocuments(),
    clock: new ManualClock("2026-11-20T10:00:00.000Z"),
    // Thousands of cases on one project, on a clock that never moves: the limiter counts each and sends its
    // headers, but must not turn the later cases into 429s that test nothing.
    rateLimitPerMinute: 1_000_000_000,
    ...options,
  });
  const { registry } = server;
  const demo = registry.get("demo");
  const key = demo.apiKeys.get("demo-app-id");
  const demoToken = issueToken(registry, demo, key, {
    grant_type: "client_credentials",
    scope: "api",
  }).access_token;
  const baseline = new Map<string, ProjectDocument>(registry.list().map((p) => [p.id, exportProject(p)]));
  // The fault rules are state of the control API too; the journal is not (every request writes it).
  // Written as the server writes state: a tier's or an incentive's integer past 2^53 is a bigint, as its digits.
  const snapshot = () =>
    stringifyExact(
      registry.list().map((project) => ({ ...exportProject(project), faults: project.faults.list() })),
    );
  // The same baseline documents every time, as a reset reuses its fixtures: the first project built from one
  // freezes it, and the projects built after it share its records, which keeps the next state mark cheap.
  const restore = () => {
    for (const project of registry.list()) if (!baseline.has(project.id)) registry.remove(project.id);
    for (const [id, document] of baseline) {
      const present = registry.list().some((project) => project.id === id);
      if (present) registry.replace(document);
      else registry.add(document);
    }
  };
  return {
    server,
    port: server.port,
    demoToken,
    snapshot,
    mark: () => markState(registry),
    unchangedSince: (mark) => unchangedSince(registry, mark),
    restore,
    connectionsClosed: watchConnections(server),
    close: () => server.close(),
  };
}

/**
 * Counts the server's open connections as they open and close. Polling getConnections with a 1 ms timer between
 * looks cost each case about 2 ms of doing nothing (2.5 of the operations file's 7 s at 200 cases); the close
 * event ends the wait as soon as it happens. The wait resolves one turn of the loop after the last close, once the
 * listeners the request added to that close (the journal's) have run.
 */
function watchConnections(server: RunningServer): () => Promise<void> {
  let open = 0;
  const waiting: (() => void)[] = [];
  server.server.on("connection", (socket) => {
    open++;
    socket.once("close", () => {
      open--;
      if (open === 0) for (const resolve of waiting.splice(0)) setImmediate(resolve);
    });
  });
  return () =>
    open === 0
      ? new Promise<void>((resolve) => setImmediate(resolve))
      : new Promise<void>((resolve) => waiting.push(resolve));
}

/** What the built-in prototypes look like, to tell whether a request managed to change one. */
export function prototypeFingerprint(): string {
  const describe = (target: object) =>
    Reflect.ownKeys(target)
      .map((key) => String(key))
      .sort()
      .join(",");
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map(describe)
    .concat([String(Object.getPrototypeOf({}) === Object.prototype)])
    .join("|");
}

/** Exceptions that escaped every handler, seen without swallowing them (vitest reports them too). */
export function watchUncaught(): { errors: Error[]; stop(): void } {
  const errors: Error[] = [];
  const listener = (error: Error) => errors.push(error);
  process.on("uncaughtExceptionMonitor", listener);
  return { errors, stop: () => process.off("uncaughtExceptionMonitor", listener) };
}

/**
 * The fuzz world of one test file: started before its tests and closed after them, with escaped exceptions
 * watched from the start. `world` is there once the file's tests run.
 */
export function useFuzzWorld(options: Partial<StartOptions> = {}): {
  readonly world: FuzzWorld;
  uncaught: ReturnType<typeof watchUncaught>;
} {
  let world: FuzzWorld | undefined;
  const uncaught = watchUncaught();
  beforeAll(async () => {
    world = await fuzzWorld(options);
  });
  afterAll(async () => {
    uncaught.stop();
    await world?.close();
  });
  return {
    get world() {
      if (!world) throw new Error("the fuzz world is only there once the file's tests run");
      return world;
    },
    uncaught,
  };
}

/** Keys of the answers the HTTP server gives before routing (src/http/server/http-server.ts), and the path decoder's. */
const PRE_ROUTING_KEYS = new Set([
  "bad_request",
  "request_timeout",
  "request_header_fields_too_large",
  "expectation_failed",
]);

function validateErrorOnly(_method: string, _path: string, _status: number, body: unknown): void {
  assertErrorBody(body);
}

export interface Exchange {
  request: RawRequest;
  response: RawResponse;
}

/**
 * The properties every answer must have, whatever was sent: never a 5xx (but the documented 501 not_emulated); JSON in the service's shape with a
 * request id; an error body that is the error object and validates against the contract (the control API's own
 * document under /__mock); a success body that validates too.
 */
export function checkAnswer({ request, response }: Exchange): void {
  // Slashes right after the host merge (issue 15: a base URL ending in a slash).
  const target = (request.target.split(/[?#]/)[0] ?? request.target).replace(/^\/+/, "/");
  // Express routes ignore case and a trailing slash; the contract's templates are lower case, without one.
  const path = target.replace(/(.)\/$/, "$1").toLowerCase();
  // The one 5xx by design (issue 15): 501 not_emulated for an operation of the real service we do not emulate
  // (a HEAD's answer has no body to show the key: its path must be such an operation).
  const notEmulated =
    response.status === 501 &&
    (request.method === "HEAD"
      ? realOperationsFor({ method: "HEAD", path: target }).length > 0
      : (response.body as { key?: unknown })?.key === "not_emulated");
  if (!notEmulated) expect(response.status, response.text.slice(0, 500)).toBeLessThan(500);
  expect(response.headers["x-request-id"]).toMatch(/^v-[0-9a-f]{18}$/);
  if (request.method === "HEAD") return;
  expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(response.body, response.text.slice(0, 500)).toBeDefined();
  const body = response.body as { key?: unknown };
  // Answers given before any route looked at the request are the plain error object, whatever the path.
  const control = path.startsWith("/__mock");
  // The admin token is checked before the control API's routes, so its 401 comes for any method.
  const preRouting =
    (response.status >= 400 && PRE_ROUTING_KEYS.has(String(body?.key))) ||
    (control && response.status === 401);
  const validate = preRouting ? validateErrorOnly : control ? validateControl : validateAny;
  if (response.status >= 400) {
    const body = response.body as { code?: unknown; request_id?: unknown };
    expect(body.code).toBe(response.status);
    expect(body.request_id).toBe(response.headers["x-request-id"]);
  }
  validate(request.method, path, response.status, response.body, request.body);
}

/** Sends one case and checks the properties every case shares; returns the exchange for the case's own checks. */
export async function sendCase(
  world: FuzzWorld,
  request: RawRequest,
  uncaught: { errors: Error[] },
): Promise<Exchange> {
  const before = world.mark();
  const prototypes = prototypeFingerprint();
  const seen = uncaught.errors.length;
  const response = await rawRequest(world.port, request, { timeoutMs: 15_000 });
  // The exchange is over for the server only once it saw the connection close (the journal writes then).
  await world.connectionsClosed();
  const exchange = { request, response };
  checkAnswer(exchange);
  expect(prototypeFingerprint()).toBe(prototypes);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(uncaught.errors.slice(seen).map((error) => error.stack ?? String(error))).toEqual([]);
  if (response.status >= 400)
    expect(world.unchangedSince(before), `a refused request changed the state (${response.status})`).toBe(
      true,
    );
  return exchange;
}

/** The server still answers an ordinary request correctly. */
export async function stillServing(world: FuzzWorld): Promise<void> {
  const response = await rawRequest(world.port, {
    method: "GET",
    target: "/v1/locations/loc_demo_circle",
    headers: [
      ["X-App-Id", "demo-app-id"],
      ["X-App-Token", "demo-app-token"],
    ],
  });
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({ id: "loc_demo_circle", object: "location" });
}
