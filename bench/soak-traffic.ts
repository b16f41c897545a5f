import { Agent, request } from "node:http";
import { connect } from "node:net";

/**
 * A sustained mixed stream against a running server, for the soak (bench/soak.ts, `npm run soak`) and its short
 * CI version (test/soak.test.ts): successes, refusals of every kind, tokens issued until the cap and used, wrong
 * credentials, malformed bodies and bytes that are not HTTP, the project's clock moved past token expiry, its
 * journal read and the project reset now and then (as a CI suite resets between tests). Whatever grows without
 * bound under such a stream shows as heap that keeps growing.
 */

const KEYS = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };
const JSON_TYPE = { "Content-Type": "application/json" };

interface Step {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** The step for the n-th request of the stream; `token` is the latest access token issued. */
function step(n: number, token: string): Step {
  switch (n % 14) {
    case 0:
      return {
        method: "POST",
        path: "/v1/oauth/token",
        headers: { ...KEYS, "Content-Type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&scope=api",
      };
    case 1:
      return { method: "GET", path: "/v1/locations/loc_demo_circle", headers: KEYS };
    case 2:
      return {
        method: "GET",
        path: "/v1/locations/loc_demo_polygon",
        headers: { Authorization: `Bearer ${token}` },
      };
    case 3:
      return {
        method: "GET",
        path: "/v1/locations/loc_demo_circle",
        headers: { ...KEYS, "X-App-Token": "wrong" },
      };
    case 4:
      return {
        method: "GET",
        path: "/v1/locations/loc_nope",
        headers: { "X-App-Id": "nobody", "X-App-Token": "x" },
      };
    case 5:
      return {
        method: "POST",
        path: "/v1/loyalties/camp_demo_ondemand/members",
        headers: { ...KEYS, ...JSON_TYPE },
        body: JSON.stringify({ customer: { source_id: `soak-${n}@example.com` }, metadata: { n } }),
      };
    case 6:
      return {
        method: "POST",
        path: "/v1/loyalties/camp_demo_loyalty/members",
        headers: { ...KEYS, ...JSON_TYPE },
        body: '{"customer":{"id":"cust_demo_alice"}}',
      };
    case 7:
      return {
        method: "POST",
        path: "/v1/events",
        headers: { ...KEYS, ...JSON_TYPE },
        body: '{"event":"user_subscribed","customer":{"source_id":"alice@example.com"},"metadata":{"plan":"pro"}}',
      };
    case 8:
      return { method: "POST", path: "/v1/events", headers: { ...KEYS, ...JSON_TYPE }, body: '{"event":' };
    case 9:
      return {
        method: "POST",
        path: "/v2/loyalties/tier-structures/lts_d0000000000000002/tiers",
        headers: { ...KEYS, ...JSON_TYPE, Authorization: `Bearer ${token}` },
        body: '{"name":"Full","qualification_rules":{"type":"POINTS","min_value":90000000}}',
      };
    case 10:
      return {
        method: "DELETE",
        path: "/v2/loyalties/incentives/linc_ffffffff",
        headers: { ...KEYS, Authorization: `Bearer ${token}` },
      };
    case 11:
      return { method: "GET", path: `/v1/no-such-path/${n}`, headers: KEYS };
    case 12:
      return { method: "GET", path: "/__mock/projects/demo/requests?limit=5" };
    default:
      return {
        method: "POST",
        path: "/v1/events",
        headers: { ...KEYS, ...JSON_TYPE },
        body: `${"[".repeat(40)}${"]".repeat(40)}`,
      };
  }
}

export interface SoakOptions {
  url: string;
  /** Requests to send in all. */
  requests: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Stop early after this long. */
  maxMs?: number;
  /** Called every `sampleEvery` requests (after a GC when one is available), for heap samples. */
  onSample?: (sent: number) => void;
  sampleEvery?: number;
}

export interface SoakResult {
  sent: number;
  statuses: Map<number, number>;
  ms: number;
}

function send(agent: Agent, base: URL, s: Step): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: base.hostname, port: base.port, method: s.method, path: s.path, headers: s.headers },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(s.body);
  });
}

/** Bytes that are not HTTP, answered by the server before any route (a path of its own to keep flat). */
function sendGarbage(base: URL): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(Number(base.port), base.hostname);
    socket.on("data", () => socket.destroy());
    socket.on("close", () => resolve());
    socket.on("error", () => resolve());
    socket.write("GET /v1/locations/x HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n");
  });
}

async function control(agent: Agent, base: URL, n: number): Promise<void> {
  // Past token expiry every 3000 requests, so expired tokens must be swept; a reset every 20 000.
  if (n % 3000 === 0)
    await send(agent, base, {
      method: "POST",
      path: "/__mock/projects/demo/clock",
      headers: JSON_TYPE,
      body: '{"advance_seconds":901}',
    });
  if (n % 20_000 === 0) await send(agent, base, { method: "POST", path: "/__mock/projects/demo/reset" });
  if (n % 500 === 0) await sendGarbage(base);
}

export async function soak(options: SoakOptions): Promise<SoakResult> {
  const base = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency ?? 32 });
  const statuses = new Map<number, number>();
  const started = Date.now();
  let next = 0;
  let token = "none";
  const deadline = started + (options.maxMs ?? Number.POSITIVE_INFINITY);
  const worker = async () => {
    while (next < options.requests && Date.now() < deadline) {
      const n = next++;
      if (n > 0) await control(agent, base, n);
      const res = await send(agent, base, step(n, token));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 200 && n % 14 === 0)
        token = (JSON.parse(res.body) as { access_token: string }).access_token;
      if (options.onSample && n > 0 && n % (options.sampleEvery ?? 10_000) === 0) options.onSample(n);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 32 }, worker));
  agent.destroy();
  return { sent: next, statuses, ms: Date.now() - started };
}
