import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { readConfig, settingsOf } from "../config/settings.js";
import { readSettingsFile } from "../config/settings-file.js";
import { parseCommandLine } from "./command-line.js";
import { runWait } from "./wait.js";

/**
 * The image's HEALTHCHECK (dist/health.js). Docker runs it beside the server, with the image's environment but
 * not the server's command line: `docker run IMAGE --admin-token X` or `--port 4000` left a check that sent no token
 * (401) or probed port 3000, unhealthy for ever, so a compose `service_healthy` dependency never started. So the
 * check reads the server's own command line, environment and working folder from /proc, works its settings out
 * as the server did (flags over the environment over --settings-file), and waits on its health at that address
 * with that token. What it cannot follow it says in words, which `docker inspect` shows.
 */
export interface ServerProcess {
  /** The arguments after the bin (`/app/dist/main.js`). */
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

const BIN = /(^|\/)dist\/main\.js$/;

function processOf(pid: string): ServerProcess | undefined {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
  } catch {
    return undefined;
  }
  const bin = argv.findIndex((arg) => BIN.test(arg));
  if (bin === -1) return undefined;
  const args = argv.slice(bin + 1);
  // Only the server: the check itself, a `docker exec … wait` and other commands of the bin are passed over.
  if (args[0] !== undefined && !args[0].startsWith("-")) return undefined;
  let env: NodeJS.ProcessEnv = process.env;
  let cwd = process.cwd();
  try {
    env = Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, "utf8")
        .split("\0")
        .filter((entry) => entry.includes("="))
        .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
    );
    cwd = readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    // Another user's process: its environment is the image's, as the check's is.
  }
  return { args, env, cwd };
}

/** The server of this container: PID 1 (the image's entry point), else the first process running the bin. */
export function findServer(self = process.pid): ServerProcess | undefined {
  let pids: string[] = [];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name) && name !== String(self));
  } catch {
    return undefined;
  }
  pids.sort((a, b) => Number(a) - Number(b));
  for (const pid of pids) {
    const found = processOf(pid);
    if (found) return found;
  }
  return undefined;
}

/** Where the server answers and the token it asks for, or why the check cannot follow it. */
export function probeOf(server: ServerProcess): { url: string; adminToken?: string } | { problem: string } {
  let settings: ReturnType<typeof settingsOf>;
  try {
    const line = parseCommandLine(server.args);
    if (line.command !== "serve")
      return { problem: `the container runs loyalty-mock ${line.command}, not the server` };
    const fromFile =
      line.settingsFile === undefined ? {} : readSettingsFile(resolve(server.cwd, line.settingsFile));
    settings = settingsOf(readConfig({ ...fromFile, ...server.env }, line.env));
  } catch (error) {
    return { problem: `the server's settings do not read: ${(error as Error).message}` };
  }
  const { host, port, adminToken } = settings;
  if (port === 0)
    return {
      problem:
        "the server listens on a port it chose at start (--port 0), which a health check cannot know; give the container a port (--port 3000)",
    };
  const any = host === "0.0.0.0" || host === "::";
  const address = any ? "127.0.0.1" : isIP(host) === 6 ? `[${host}]` : host;
  return { url: `http://${address}:${port}`, ...(adminToken !== undefined && { adminToken }) };
}

/** The check: exit 0 once the server answers 200 on its health (within 3 s), 1 otherwise, saying why. */
export async function runHealthCheck(find: () => ServerProcess | undefined = findServer): Promise<number> {
  const server = find();
  if (server === undefined) {
    process.stderr.write("loyalty-mock health: no loyalty-mock server runs in this container\n");
    return 1;
  }
  const probe = probeOf(server);
  if ("problem" in probe) {
    process.stderr.write(`loyalty-mock health: ${probe.problem}\n`);
    return 1;
  }
  return runWait(
    {
      command: "wait",
      url: probe.url,
      timeoutSeconds: 3,
      ...(probe.adminToken !== undefined && { adminToken: probe.adminToken }),
    },
    {},
  );
}
