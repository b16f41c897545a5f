import { readFileSync } from "node:fs";
import { SETTINGS } from "../config/settings.js";
import { variableOf } from "../config/settings-table.js";
import { type Command, HELP, helpOf, parseFlags } from "./flags.js";
import { UsageError } from "./usage-error.js";

/**
 * `loyalty-mock wait`: the bounded wait of a CI script, without a shell loop that spins forever when something
 * else holds the port. `--url`: until that server's `/__mock/health` answers 200. `--log <file>`: until the file
 * (the server's stderr) says `loyalty-mock listening on <url>`, then that health answer, printing the URL. With
 * `--port 0` that is the surest: the address was printed by this very server, so a server left over from an
 * earlier run on the same port cannot answer in its place.
 */
export interface WaitCommand {
  command: "wait";
  /** A server's base URL; absent with `log`. */
  url?: string;
  /** The server's stderr, to read its address from. */
  log?: string;
  timeoutSeconds: number;
  /** The server's admin token; LOYALTY_MOCK_ADMIN_TOKEN when absent. */
  adminToken?: string;
}

const POLL_MS = 100;
const LISTENING = /^loyalty-mock listening on (\S+)$/m;
/** A line that stopped the start (warnings do not). */
const REFUSED = /^loyalty-mock: (?!warning: ).*$/m;

export const WAIT: Command = {
  name: "wait",
  usage: ["wait (--url <url> | --log <file>) [--timeout <seconds>] [--admin-token <token>]"],
  about:
    "Waits until a loyalty-mock server answers 200 on /__mock/health, then exits 0; exits 1 after --timeout\n" +
    "seconds without it, saying what the server last answered (or that nothing did).",
  flags: [
    { name: "url", value: "<url>", help: "the server's base URL, as in http://127.0.0.1:3000" },
    {
      name: "log",
      value: "<file>",
      help: 'the file the server\'s stderr goes to: waits for its "listening on" line (so --port 0 works), then its health, and prints its URL',
    },
    { name: "timeout", value: "<seconds>", help: "how long to wait, at most 3600 (30)" },
    {
      name: "admin-token",
      value: "<token>",
      help: `the server's admin token, sent in X-Mock-Admin-Token [${variableOf(SETTINGS.adminToken)}]`,
    },
    HELP,
  ],
  examples: [
    "loyalty-mock --port 0 2> loyalty-mock.err &",
    "MOCK_URL=$(loyalty-mock wait --log loyalty-mock.err --timeout 30)",
    "loyalty-mock wait --url http://127.0.0.1:3000 --admin-token ci-secret",
  ],
};

export function parseWait(args: readonly string[]): WaitCommand | { command: "help"; text: string } {
  const values = parseFlags(WAIT, args);
  if (values === "help") return { command: "help", text: helpOf(WAIT) };
  const {
    url,
    log,
    timeout = "30",
    "admin-token": adminToken,
  } = values as { url?: string; log?: string; timeout?: string; "admin-token"?: string };
  if ((url === undefined) === (log === undefined))
    throw new UsageError(
      "wait: give --url <url> (as in --url http://127.0.0.1:3000) or --log <file>, not both",
      WAIT,
    );
  if (url !== undefined && (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)))
    throw new UsageError(
      `Invalid value for --url: ${JSON.stringify(url)}; expected an http:// URL, as in --url http://127.0.0.1:3000`,
      WAIT,
    );
  const seconds = Number(timeout);
  if (!/^\d+(\.\d+)?$/.test(timeout) || seconds <= 0 || seconds > 3600)
    throw new UsageError(
      `Invalid value for --timeout: ${JSON.stringify(timeout)}; expected seconds, more than 0 and at most 3600, as in --timeout 30`,
      WAIT,
    );
  return {
    command: "wait",
    ...(url !== undefined ? { url: url.replace(/\/+$/, "") } : { log }),
    timeoutSeconds: seconds,
    ...(adminToken !== undefined && { adminToken }),
  };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, POLL_MS));

/** The server's address once its stderr says it, or the line that stopped its start. */
function fromLog(file: string): { url?: string; refused?: string } {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  const url = LISTENING.exec(text)?.[1];
  return url !== undefined ? { url } : { refused: REFUSED.exec(text)?.[0] };
}

/** What a failed connection was, in words: "connection refused" rather than a TypeError. */
const FAILURES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "no such host (lookup failed)",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
};

interface Cause {
  code?: string;
  message?: string;
  errors?: Cause[];
}

/** fetch's failure as a user reads it: the first cause's code in words, else its message. */
function failureOf(error: unknown): string {
  if ((error as Error).name === "TimeoutError") return "no answer within 2 s";
  const cause = (error as { cause?: Cause }).cause;
  // localhost may be tried on ::1 and 127.0.0.1: both refused is an AggregateError holding each.
  const code = cause?.code ?? cause?.errors?.find((inner) => inner.code !== undefined)?.code;
  if (code !== undefined) return FAILURES[code] ?? code;
  return cause?.message ?? (error as Error).message;
}

async function healthStatus(url: string, headers: Record<string, string>, deadline: number): Promise<string> {
  try {
    const signal = AbortSignal.timeout(Math.max(1, Math.min(2000, deadline - Date.now())));
    const res = await fetch(`${url}/__mock/health`, { headers, signal });
    await res.body?.cancel();
    return `status ${res.status}`;
  } catch (error) {
    return failureOf(error);
  }
}

/** The last answer, and what to do about a 401. */
function explained(last: string, tokenSent: boolean): string {
  if (last !== "status 401") return last;
  return tokenSent
    ? "status 401: the server refused the admin token sent; pass the one it was started with"
    : `status 401: the server asks for its admin token; pass --admin-token <token> (or set ${variableOf(SETTINGS.adminToken)})`;
}

/** Resolves to the exit status: 0 once healthy (the URL printed with --log), 1 when refused or out of time. */
export async function runWait(command: WaitCommand, env: NodeJS.ProcessEnv): Promise<number> {
  const token = command.adminToken ?? env[variableOf(SETTINGS.adminToken)];
  const headers: Record<string, string> = token ? { "X-Mock-Admin-Token": token } : {};
  const deadline = Date.now() + command.timeoutSeconds * 1000;
  let url = command.url;
  let last = command.log === undefined ? "no answer" : `no address in ${command.log}`;
  while (Date.now() < deadline) {
    if (url === undefined && command.log !== undefined) {
      const found = fromLog(command.log);
      if (found.refused !== undefined) {
        process.stderr.write(`loyalty-mock wait: the server did not start: ${found.refused}\n`);
        return 1;
      }
      url = found.url;
    }
    if (url !== undefined) {
      last = await healthStatus(url, headers, deadline);
      if (last === "status 200") {
        if (command.log !== undefined) process.stdout.write(`${url}\n`);
        return 0;
      }
    }
    await pause();
  }
  const what = url === undefined ? command.log : `${url}/__mock/health`;
  process.stderr.write(
    `loyalty-mock wait: ${what}: no 200 within ${command.timeoutSeconds} s (last: ${explained(last, headers["X-Mock-Admin-Token"] !== undefined)})\n`,
  );
  return 1;
}
