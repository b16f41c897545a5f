import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { SETTINGS } from "../config/settings.js";
import { variableOf } from "../config/settings-table.js";
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
}

const POLL_MS = 100;
const LISTENING = /^loyalty-mock listening on (\S+)$/m;
/** A line that stopped the start (warnings do not). */
const REFUSED = /^loyalty-mock: (?!warning: ).*$/m;

export function parseWait(args: readonly string[]): WaitCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { url: { type: "string" }, log: { type: "string" }, timeout: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { url, log, timeout = "30" } = values as { url?: string; log?: string; timeout?: string };
  if ((url === undefined) === (log === undefined))
    throw new UsageError(
      "wait: give --url <url> (as in --url http://127.0.0.1:3000) or --log <file>, not both",
    );
  if (url !== undefined && (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)))
    throw new UsageError(`Invalid value for --url: ${JSON.stringify(url)}; expected an http:// URL`);
  const seconds = Number(timeout);
  if (!/^\d+(\.\d+)?$/.test(timeout) || seconds <= 0 || seconds > 3600)
    throw new UsageError(
      `Invalid value for --timeout: ${JSON.stringify(timeout)}; expected seconds, more than 0 and at most 3600`,
    );
  return {
    command: "wait",
    ...(url !== undefined ? { url: url.replace(/\/+$/, "") } : { log }),
    timeoutSeconds: seconds,
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

async function healthStatus(url: string, headers: Record<string, string>, deadline: number): Promise<string> {
  try {
    const signal = AbortSignal.timeout(Math.max(1, Math.min(2000, deadline - Date.now())));
    const res = await fetch(`${url}/__mock/health`, { headers, signal });
    await res.body?.cancel();
    return `status ${res.status}`;
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
  }
}

/** Resolves to the exit status: 0 once healthy (the URL printed with --log), 1 when refused or out of time. */
export async function runWait(command: WaitCommand, env: NodeJS.ProcessEnv): Promise<number> {
  const row = SETTINGS.adminToken;
  const token = env[variableOf(row)];
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
    `loyalty-mock wait: ${what}: no 200 within ${command.timeoutSeconds} s (last: ${last})\n`,
  );
  return 1;
}
