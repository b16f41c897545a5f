import { SETTINGS } from "../config/settings.js";
import { variableOf } from "../config/settings-table.js";
import { isRunning, readHealthFile } from "./health-file.js";
import { runWait } from "./wait.js";

/**
 * The image's HEALTHCHECK (dist/cli/health-main.js). Docker runs it beside the server with the container's
 * environment but not the server's command line, so it cannot know on its own where the server listens or which
 * admin token it asks for (`docker run IMAGE --port 4000 --admin-token X`). The server says so itself: once it
 * listens it writes its address and token to the file LOYALTY_MOCK_HEALTH_FILE names (health-file.ts), which the
 * image sets for both. The check reads that file, makes sure the process that wrote it still runs, and waits on
 * its health at that address with that token. No other process is looked at: 0.10.0 read command lines from
 * /proc and took any process whose arguments ended in `dist/main.js` for the server.
 */

/** The variable naming the health file: a setting of the server, read by the check from its environment. */
const HEALTH_FILE_VARIABLE = variableOf(SETTINGS.healthFile);

/** Where the server of the health file answers and the token it asks for, or why the check cannot follow it. */
export function probeOf(env: NodeJS.ProcessEnv): { url: string; adminToken?: string } | { problem: string } {
  const file = env[HEALTH_FILE_VARIABLE];
  if (file === undefined || file === "")
    return {
      problem: `${HEALTH_FILE_VARIABLE} is not set: the server writes where it listens to that file (the image sets it)`,
    };
  const record = readHealthFile(file);
  if (record === undefined)
    return {
      problem: `no server has written ${file}: it is starting, could not write it (its log says why), or has stopped`,
    };
  if ("problem" in record) return record;
  if (!isRunning(record.pid))
    return { problem: `the server that wrote ${file} (pid ${record.pid}) is not running` };
  return { url: record.url, ...(record.admin_token !== undefined && { adminToken: record.admin_token }) };
}

/**
 * The check: exit 0 once the server answers 200 on its health (within 3 s), 1 otherwise, saying why. A refused
 * token waits out the time as any other answer does (the server may be restarting with the right one); tests
 * that check the refusal give less time.
 */
export async function runHealthCheck(
  env: NodeJS.ProcessEnv = process.env,
  { timeoutSeconds = 3 }: { timeoutSeconds?: number } = {},
): Promise<number> {
  const probe = probeOf(env);
  if ("problem" in probe) {
    process.stderr.write(`loyalty-mock health: ${probe.problem}\n`);
    return 1;
  }
  return runWait(
    {
      command: "wait",
      url: probe.url,
      timeoutSeconds,
      ...(probe.adminToken !== undefined && { adminToken: probe.adminToken }),
    },
    {},
  );
}
