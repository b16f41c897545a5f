import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  build,
  killGroup,
  launch,
  listeningOn,
  ROOT,
  type Started,
  waitForHttp,
} from "../helpers/process.js";

/**
 * SIGKILL at random moments while snapshots are being written all the time: a tiny state and the smallest
 * STATE_COMPACT_BYTES make the server start a new snapshot every few writes, so kills land before, during and
 * after snapshot writes, renames and log switches. Writes are card assignments (a customer, a publication and a
 * card changed together) and tokens, in STATE_SYNC=always: each acknowledged one must be there after a restart,
 * and the restart must load at all (a batch replayed in part would leave a card held by a missing customer).
 */
const MAIN = join(ROOT, "dist", "main.js");
const KEYS = { "X-App-Id": "crash-app-id", "X-App-Token": "crash-app-token" };
const PROJECT = {
  project: { id: "crash" },
  api_keys: [{ app_id: KEYS["X-App-Id"], app_token: KEYS["X-App-Token"] }],
  campaigns: [
    {
      id: "camp_crash",
      name: "Crash Program",
      campaign_type: "LOYALTY_PROGRAM",
      type: "AUTO_UPDATE",
      join_once: true,
      voucher: {
        type: "LOYALTY_CARD",
        loyalty_card: { points: 0 },
        code_config: { pattern: "CR-########", charset: "0123456789", prefix: "", postfix: "" },
      },
      created_at: "2026-01-01T00:00:00.000Z",
    },
  ],
};

let dir: string;
const processes: Started[] = [];
beforeAll(() => {
  build();
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-crash-"));
  writeFileSync(join(dir, "crash.json"), JSON.stringify(PROJECT));
});
afterAll(() => {
  for (const started of processes) killGroup(started, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

async function startProcess(stateFile: string) {
  const started = launch("node", [MAIN, "--port", "0", "--state-file", stateFile], {
    LOYALTY_MOCK_LOG_LEVEL: "error",
    LOYALTY_MOCK_FIXTURES_DIR: dir,
    LOYALTY_MOCK_STATE_SYNC: "always",
    LOYALTY_MOCK_STATE_COMPACT_BYTES: "4096",
    LOYALTY_MOCK_TOKEN_LIMIT: "1000000",
    // As the token cap: the writes are what is tested, and a fast machine may pass 2,000 calls a minute.
    LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: "1000000000",
  });
  processes.push(started);
  const { base } = await listeningOn(started);
  await waitForHttp(`${base}/`, started);
  return { started, base };
}

interface Acknowledged {
  cards: Map<string, string>;
  tokens: string[];
}

async function writeUntilKilled(base: string, started: Started, killAfterMs: number, round: number) {
  const acknowledged: Acknowledged = { cards: new Map(), tokens: [] };
  let alive = true;
  let sent = 0;
  // The kill's moment counts from the first acknowledged write, not from the start: on a busy machine the first
  // answers may take longer than the shortest delay, and a round that acknowledged nothing tests nothing.
  let firstAcknowledged: () => void = () => {};
  const anyAcknowledged = new Promise<void>((resolve) => {
    firstAcknowledged = resolve;
  });
  const writer = async (worker: number) => {
    while (alive) {
      const n = sent++;
      try {
        if (worker % 2 === 0) {
          const email = `r${round}-w${worker}-${n}@example.com`;
          const res = await fetch(`${base}/v1/loyalties/camp_crash/members`, {
            method: "POST",
            headers: { ...KEYS, "Content-Type": "application/json" },
            body: JSON.stringify({ customer: { source_id: email } }),
          });
          const body = (await res.json()) as { code: string };
          if (res.status === 200) {
            acknowledged.cards.set(body.code, email);
            firstAcknowledged();
          }
        } else {
          const res = await fetch(`${base}/v1/oauth/token`, {
            method: "POST",
            headers: { ...KEYS, "Content-Type": "application/x-www-form-urlencoded" },
            body: "grant_type=client_credentials&scope=api",
          });
          const body = (await res.json()) as { access_token: string };
          if (res.status === 200) {
            acknowledged.tokens.push(body.access_token);
            firstAcknowledged();
          }
        }
      } catch {
        return;
      }
    }
  };
  const writers = Array.from({ length: 8 }, (_, worker) => writer(worker));
  // A guard, not a time target: ends as soon as one write is acknowledged.
  const guard = setTimeout(firstAcknowledged, 30_000);
  await anyAcknowledged;
  clearTimeout(guard);
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  killGroup(started, "SIGKILL");
  alive = false;
  expect((await started.exited).signal).toBe("SIGKILL");
  await Promise.all(writers);
  return acknowledged;
}

describe("SIGKILL at random moments while snapshots are written", () => {
  it("STATE_SYNC=always: every acknowledged write is there after the restart", async () => {
    const stateFile = join(dir, "state.json");
    let server = await startProcess(stateFile);
    const cards = new Map<string, string>();
    const tokens: string[] = [];
    for (let round = 1; round <= 6; round++) {
      const killAfterMs = Math.floor(Math.random() * 900);
      const result = await writeUntilKilled(server.base, server.started, killAfterMs, round);
      const context = `round ${round}, killed ${killAfterMs} ms after the first acknowledged write, ${result.cards.size} cards and ${result.tokens.length} tokens acknowledged`;
      expect(result.cards.size + result.tokens.length, context).toBeGreaterThan(0);
      for (const [code, email] of result.cards) cards.set(code, email);
      tokens.push(...result.tokens);

      server = await startProcess(stateFile);
      const state = (await (await fetch(`${server.base}/__mock/projects/crash/state`)).json()) as {
        vouchers: { code: string; holder_id: string | null }[];
        customers: { id: string; source_id: string }[];
        tokens: { access_token: string }[];
      };
      const holders = new Map(state.customers.map((customer) => [customer.id, customer.source_id]));
      const held = new Map(state.vouchers.map((card) => [card.code, holders.get(card.holder_id ?? "")]));
      const lostCards = [...cards].filter(([code, email]) => held.get(code) !== email);
      expect(lostCards, `${context}: acknowledged assignments missing`).toEqual([]);
      const restored = new Set(state.tokens.map((token) => token.access_token));
      expect(
        tokens.filter((token) => !restored.has(token)),
        `${context}: tokens missing`,
      ).toEqual([]);
    }
    killGroup(server.started, "SIGTERM");
    expect((await server.started.exited).code).toBe(0);
    // A generation is a snapshot or a restart (6 here): snapshots were written all through the rounds.
    const head = JSON.parse(readFileSync(stateFile, "utf8").split("\n", 1)[0] as string) as { gen: number };
    expect(head.gen).toBeGreaterThan(9);
  }, 120_000);
});
