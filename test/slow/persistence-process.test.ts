import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logFilesOf } from "../../src/persistence/replay.js";
import {
  build,
  killGroup,
  launch,
  listeningOn,
  ROOT,
  type Started,
  waitForHttp,
} from "../helpers/process.js";

const MAIN = join(ROOT, "dist", "main.js");
const DEMO = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };
const FORM = "application/x-www-form-urlencoded";
const TOKEN_BODY = "grant_type=client_credentials&scope=api";

let dir: string;
const processes: Started[] = [];
beforeAll(() => {
  build();
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-process-"));
});
afterAll(() => {
  for (const process of processes) killGroup(process, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

async function startProcess(stateFile: string, env: Record<string, string> = {}) {
  const started = launch("node", [MAIN, "--port", "0", "--state-file", stateFile], {
    LOYALTY_MOCK_LOG_LEVEL: "error",
    // The writes are what is tested, not the caps: on a fast machine the rounds of writes passed the default rate
    // limit (2,000 a minute) or the 1,000 live tokens a project may hold, and a 429 made a round's "settled" token.
    LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: "1000000000",
    LOYALTY_MOCK_TOKEN_LIMIT: "100000000",
    ...env,
  });
  processes.push(started);
  const { base, port } = await listeningOn(started);
  await waitForHttp(`${base}/`, started);
  return { started, base, port };
}

async function demoTokens(base: string): Promise<string[]> {
  const res = await fetch(`${base}/__mock/projects/demo/state`);
  expect(res.status).toBe(200);
  const state = (await res.json()) as { tokens: { access_token: string }[] };
  return state.tokens.map((token) => token.access_token);
}

/**
 * Resolves once the state file or one of its change logs holds `token` in a committed batch or a finished
 * snapshot: when the interval's save has written it, however long the machine took to get there.
 */
async function savedToDisk(stateFile: string, token: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const saved = [stateFile, ...logFilesOf(stateFile).map((log) => log.path)].some((file) => {
      // A change log the server retires between the listing and the read is simply gone.
      const text = readIfThere(file);
      const at = text.indexOf(token);
      return at >= 0 && /\{"o":"(commit|end)"/.test(text.slice(at));
    });
    if (saved) return;
    if (Date.now() > deadline) throw new Error(`${token} not saved to ${stateFile} within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

async function issue(base: string): Promise<string> {
  const res = await fetch(`${base}/v1/oauth/token`, {
    method: "POST",
    headers: { ...DEMO, "Content-Type": FORM },
    body: TOKEN_BODY,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe("graceful shutdown", () => {
  it("on SIGTERM stops accepting, finishes the request in flight, saves it and exits 0", async () => {
    const stateFile = join(dir, "graceful.json");
    const { started, base, port } = await startProcess(stateFile, {
      LOYALTY_MOCK_STATE_SAVE_INTERVAL_MS: "600000",
    });

    // A request whose body is only half sent when the signal comes: it is in flight.
    let finishBody: () => void = () => undefined;
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/v1/oauth/token",
          headers: { ...DEMO, "Content-Type": FORM, "Content-Length": Buffer.byteLength(TOKEN_BODY) },
        },
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
      req.write(TOKEN_BODY.slice(0, 10));
      finishBody = () => req.end(TOKEN_BODY.slice(10));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    killGroup(started, "SIGTERM");

    // The server stops accepting new connections while the request is still in flight...
    const deadline = Date.now() + 10_000;
    let refused = false;
    while (!refused && Date.now() < deadline) {
      refused = await fetch(`${base}/`).then(
        async (res) => {
          await res.arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, 20));
          return false;
        },
        () => true,
      );
    }
    expect(refused).toBe(true);
    expect(started.child.exitCode).toBeNull();

    // ...and still answers it once its body is complete.
    finishBody();
    const answered = await response;
    expect(answered.status).toBe(200);
    const token = (JSON.parse(answered.body) as { access_token: string }).access_token;
    expect(await started.exited).toEqual({ code: 0, signal: null });

    // The save interval is ten minutes: the token is in the file because shutdown saved it.
    const again = await startProcess(stateFile);
    expect(await demoTokens(again.base)).toEqual([token]);
    killGroup(again.started, "SIGTERM");
    expect((await again.started.exited).code).toBe(0);
  });
});

/**
 * Writes as fast as `workers` clients can until the process is killed, `killAfterMs` after the first
 * acknowledgement: token issuance on `demo` and, from one of the clients, state replacements of `other` (its
 * name numbered). Returns what the server acknowledged.
 */
async function writeUntilKilled(base: string, workers: number, killAfterMs: number, started: Started) {
  let firstAcknowledged: () => void = () => undefined;
  const streaming = new Promise<void>((resolve) => {
    firstAcknowledged = resolve;
  });
  const acknowledged = { tokens: [] as string[], lastRename: 0 };
  let sentRenames = 0;
  let alive = true;
  const other = (await (await fetch(`${base}/__mock/projects/other/state`)).json()) as {
    project: { name: string };
  };
  const tokenWriter = async () => {
    while (alive) {
      try {
        const res = await fetch(`${base}/v1/oauth/token`, {
          method: "POST",
          headers: { ...DEMO, "Content-Type": FORM },
          body: TOKEN_BODY,
        });
        const body = (await res.json()) as { access_token: string };
        if (res.status === 200) {
          acknowledged.tokens.push(body.access_token);
          firstAcknowledged();
        }
      } catch {
        return;
      }
    }
  };
  const renamer = async () => {
    while (alive) {
      sentRenames += 1;
      const n = sentRenames;
      other.project.name = `renamed ${n}`;
      try {
        const res = await fetch(`${base}/__mock/projects/other/state`, {
          method: "PUT",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(other),
        });
        await res.arrayBuffer();
        if (res.status === 200) acknowledged.lastRename = n;
      } catch {
        return;
      }
    }
  };
  const clients = [renamer(), ...Array.from({ length: workers - 1 }, tokenWriter)];
  // The kill comes at a random moment once the stream is flowing (the first acknowledgement shows it is).
  await streaming;
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  killGroup(started, "SIGKILL");
  alive = false;
  expect((await started.exited).signal).toBe("SIGKILL");
  await Promise.all(clients);
  return { ...acknowledged, sentRenames };
}

describe("a crash (SIGKILL) at a random moment during a stream of writes", () => {
  const ROUNDS = 3;

  it("STATE_SYNC=always: the restarted server holds every change acknowledged before the kill", async () => {
    const stateFile = join(dir, "always.json");
    let server = await startProcess(stateFile, { LOYALTY_MOCK_STATE_SYNC: "always" });
    let expected: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const killAfterMs = Math.floor(Math.random() * 800);
      const result = await writeUntilKilled(server.base, 8, killAfterMs, server.started);
      const context = `round ${round}, killed after ${killAfterMs} ms, ${result.tokens.length} tokens acknowledged`;
      expect(result.tokens.length, context).toBeGreaterThan(0);
      expected = [...expected, ...result.tokens];

      server = await startProcess(stateFile, { LOYALTY_MOCK_STATE_SYNC: "always" });
      const restored = new Set(await demoTokens(server.base));
      expect(
        expected.filter((token) => !restored.has(token)),
        `${context}: acknowledged tokens missing after the restart`,
      ).toEqual([]);
      const other = (await (await fetch(`${server.base}/__mock/projects/other/state`)).json()) as {
        project: { name: string };
      };
      const renamed = Number(/^renamed (\d+)$/.exec(other.project.name)?.[1] ?? 0);
      expect(renamed, context).toBeGreaterThanOrEqual(result.lastRename);
      expect(renamed, context).toBeLessThanOrEqual(result.sentRenames);
    }
    killGroup(server.started, "SIGTERM");
    expect((await server.started.exited).code).toBe(0);
  }, 60_000);

  it("STATE_SYNC=interval: the restarted server finds a loadable state holding what was saved before", async () => {
    const stateFile = join(dir, "interval.json");
    const env = { LOYALTY_MOCK_STATE_SYNC: "interval", LOYALTY_MOCK_STATE_SAVE_INTERVAL_MS: "50" };
    let server = await startProcess(stateFile, env);
    const settled: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // A change the interval's save has written (a committed batch in the files) survives whatever comes next.
      const token = await issue(server.base);
      await savedToDisk(stateFile, token);
      settled.push(token);
      const killAfterMs = Math.floor(Math.random() * 800);
      const result = await writeUntilKilled(server.base, 8, killAfterMs, server.started);
      const context = `round ${round}, killed after ${killAfterMs} ms, ${result.tokens.length} tokens acknowledged`;

      server = await startProcess(stateFile, env);
      const restored = new Set(await demoTokens(server.base));
      expect(
        settled.filter((token) => !restored.has(token)),
        context,
      ).toEqual([]);
    }
    killGroup(server.started, "SIGTERM");
    expect((await server.started.exited).code).toBe(0);
  }, 60_000);
});

/** Issue 38: the state file keeps that a project was posted, so a seeded one draws past its document after a restart. */
describe("a posted seeded project across a restart of the process", () => {
  const SEEDED = { LOYALTY_MOCK_SEED: "posted-across-restart" };
  const call = async (base: string, method: string, path: string, body?: unknown, headers = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "Content-Type": "application/json", ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const joinDemo = (base: string, sourceId: string) =>
    call(
      base,
      "POST",
      "/v1/loyalties/camp_demo_loyalty/members",
      { customer: { source_id: sourceId } },
      DEMO,
    );

  it("reset after the restart: the next customer is a new one; a mark that is not a boolean stops the start, exit 2", async () => {
    const folder = mkdtempSync(join(dir, "posted-"));
    const stateFile = join(folder, "state.json");
    const first = await startProcess(stateFile, SEEDED);
    // The demo's first member, drawn from the start of its seeded stream; then the demo posted again from its export.
    const joined = await joinDemo(first.base, "first-customer");
    expect(joined.status).toBe(200);
    const exported = (await call(first.base, "GET", "/__mock/projects/demo/state")).body;
    expect((await call(first.base, "DELETE", "/__mock/projects/demo")).status).toBe(200);
    expect((await call(first.base, "POST", "/__mock/projects", exported)).status).toBe(201);
    killGroup(first.started, "SIGTERM");
    expect((await first.started.exited).code).toBe(0);

    const second = await startProcess(stateFile, SEEDED);
    expect((await call(second.base, "POST", "/__mock/projects/demo/reset")).status).toBe(200);
    const next = await joinDemo(second.base, "second-customer");
    expect(next.status).toBe(200);
    expect(next.body.holder_id).not.toBe(joined.body.holder_id);
    expect((await joinDemo(second.base, "first-customer")).status).toBe(400);
    killGroup(second.started, "SIGTERM");
    expect((await second.started.exited).code).toBe(0);

    const marked = readdirSync(folder)
      .map((name) => join(folder, name))
      .filter((file) => readFileSync(file, "utf8").includes(',"posted":true}'));
    expect(marked.length).toBeGreaterThan(0);
    for (const file of marked)
      writeFileSync(file, readFileSync(file, "utf8").replace(',"posted":true}', ',"posted":"yes"}'));
    const refused = launch("node", [MAIN, "--port", "0", "--state-file", stateFile], SEEDED);
    processes.push(refused);
    expect((await refused.exited).code).toBe(2);
    expect(refused.stderr()).toMatch(
      /^loyalty-mock: Invalid value for --state-file: ".*"; .*state\.json\S*: (line|batch ending on line) \d+: \$\.posted: should be boolean; expected a state file this server wrote/,
    );
  }, 60_000);
});
