import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { portBelowEphemeral } from "./ports.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Builds dist/ the way `npm start` does (incremental, so a second call is cheap). */
export function build(): void {
  execFileSync("npx", ["tsc", "-b", "tsconfig.build.json"], { cwd: ROOT, stdio: "pipe" });
}

/**
 * A port to tell a child process (`--port N`, LOYALTY_MOCK_PORT=N) when the test is about that port being used: one
 * below the range port 0 draws from, free now, so no port-0 server of this or another suite takes it before the
 * child binds (helpers/ports.ts). When the port does not matter, start the child on port 0 and read its address
 * back with `listeningOn`.
 */
export function freePort(): Promise<number> {
  return portBelowEphemeral();
}

export interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The test run's own variables that share the server's prefix: a server spawned with them would warn that each is
 * not a setting, an extra line on its stderr that no user of it sees. Kept from children unless a test passes one.
 */
const RUN_VARIABLES = ["LOYALTY_MOCK_REQUIRE_CONTRACT"];

/** The environment for a child: this process's without the run's own variables, then `env`. */
export function childEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const merged: Record<string, string | undefined> = { ...process.env };
  for (const name of RUN_VARIABLES) delete merged[name];
  Object.assign(merged, env);
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return merged;
}

/** Spawns a command in its own process group and collects its output; an undefined variable is removed. */
export function launch(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  cwd = ROOT,
): Started {
  const merged = childEnv(env);
  const child = spawn(command, args, { cwd, env: merged, detached: true });
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    err += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Polls until the URL answers (any HTTP status), or fails after `timeoutMs`. */
export async function waitForHttp(url: string, started: Started, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`process exited early: ${started.stderr()}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms; stderr: ${started.stderr()}`);
}

export function killGroup(started: Started, signal: NodeJS.Signals = "SIGTERM"): void {
  if (started.child.pid !== undefined && started.child.exitCode === null) {
    try {
      process.kill(-started.child.pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Waits until the process's `stream` (stdout or stderr) matches `pattern` and answers the match. */
export async function waitForOutput(
  started: Started,
  stream: "stdout" | "stderr",
  pattern: RegExp,
  timeoutMs = 20_000,
): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = pattern.exec(started[stream]());
    if (match) return match;
    if (started.child.exitCode !== null) throw new Error(`process exited early: ${started.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${stream} did not match ${pattern} within ${timeoutMs} ms: ${started[stream]()}`);
}

/** Waits until the process's stderr matches `pattern` and answers the match. */
export function waitForStderr(
  started: Started,
  pattern: RegExp,
  timeoutMs = 20_000,
): Promise<RegExpExecArray> {
  return waitForOutput(started, "stderr", pattern, timeoutMs);
}

/**
 * The address a server started by `loyalty-mock` (or `node dist/main.js`) listens on, from the line it prints on
 * stderr once listening, whatever its log level: how a test that starts it on port 0 learns its port.
 */
export async function listeningOn(
  started: Started,
  timeoutMs = 20_000,
): Promise<{ base: string; port: number }> {
  const [, base = ""] = await waitForStderr(started, /loyalty-mock listening on (http:\/\/\S+)\n/, timeoutMs);
  return { base, port: Number(new URL(base).port) };
}

/**
 * The built server (`node dist/main.js`, run `build()` first) on port 0 with `env` (LOYALTY_MOCK_… variables), once
 * it listens and its health check answers.
 */
export async function startBuilt(
  env: Record<string, string | undefined>,
  timeoutMs = 20_000,
): Promise<{ server: Started; port: number; base: string }> {
  const server = launch("node", ["dist/main.js"], { ...env, LOYALTY_MOCK_PORT: "0" });
  const { base, port } = await listeningOn(server, timeoutMs);
  await waitForHttp(`${base}/__mock/health`, server, timeoutMs);
  return { server, port, base };
}
