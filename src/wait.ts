import { parseArgs } from "node:util";
import { SETTINGS } from "./settings.js";
import { formerVariableOf, variableOf } from "./settings-table.js";
import { UsageError } from "./usage-error.js";

/**
 * `loyalty-mock wait --url <url> --timeout <seconds>`: the bounded wait of a CI script, without a shell loop
 * that spins forever when something else holds the port. Success is the server's own health answer (200 from
 * `/__mock/health`), not any answer on the port.
 */
export interface WaitCommand {
  command: "wait";
  /** The health URL polled: `<url>/__mock/health`. */
  url: string;
  timeoutSeconds: number;
}

const POLL_MS = 100;

export function parseWait(args: readonly string[]): WaitCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { url: { type: "string" }, timeout: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { url, timeout = "30" } = values as { url?: string; timeout?: string };
  if (url === undefined)
    throw new UsageError("wait: --url <url> is required, as in --url http://127.0.0.1:3000");
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new UsageError(`Invalid value for --url: ${JSON.stringify(url)}; expected an http:// URL`);
  const seconds = Number(timeout);
  if (!/^\d+(\.\d+)?$/.test(timeout) || seconds <= 0 || seconds > 3600)
    throw new UsageError(
      `Invalid value for --timeout: ${JSON.stringify(timeout)}; expected seconds, more than 0 and at most 3600`,
    );
  const base = url.replace(/\/+$/, "");
  const health = base.endsWith("/__mock/health") ? base : `${base}/__mock/health`;
  return { command: "wait", url: health, timeoutSeconds: seconds };
}

/** Polls until the health answer is 200; resolves to the exit status (0, or 1 when the time ran out). */
export async function runWait(command: WaitCommand, env: NodeJS.ProcessEnv): Promise<number> {
  const row = SETTINGS.adminToken;
  const token = env[variableOf(row)] || env[formerVariableOf(row)];
  const headers: Record<string, string> = token ? { "X-Mock-Admin-Token": token } : {};
  const deadline = Date.now() + command.timeoutSeconds * 1000;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const signal = AbortSignal.timeout(Math.max(1, Math.min(2000, deadline - Date.now())));
      const res = await fetch(command.url, { headers, signal });
      await res.body?.cancel();
      if (res.status === 200) return 0;
      last = `status ${res.status}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      last = cause?.code ?? (error as Error).name;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  process.stderr.write(
    `loyalty-mock wait: ${command.url} did not answer 200 within ${command.timeoutSeconds} s (last: ${last})\n`,
  );
  return 1;
}
