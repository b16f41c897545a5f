import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Builds dist/ the way `npm start` does (incremental, so a second call is cheap). */
export function build(): void {
  execFileSync("npx", ["tsc", "-b", "tsconfig.build.json"], { cwd: ROOT, stdio: "pipe" });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns a command in its own process group and collects its output; an undefined variable is removed. */
export function launch(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  cwd = ROOT,
): Started {
  const merged = { ...process.env, ...env };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
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

/** Waits until the process's stderr matches `pattern` and answers the match. */
export async function waitForStderr(
  started: Started,
  pattern: RegExp,
  timeoutMs = 20_000,
): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = pattern.exec(started.stderr());
    if (match) return match;
    if (started.child.exitCode !== null) throw new Error(`process exited early: ${started.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`stderr did not match ${pattern} within ${timeoutMs} ms: ${started.stderr()}`);
}

/**
 * The built server (`node dist/main.js`, run `build()` first) on a free port with `env` (LOYALTY_MOCK_… variables),
 * once its health check answers.
 */
export async function startBuilt(
  env: Record<string, string | undefined>,
  timeoutMs = 20_000,
): Promise<{ server: Started; port: number; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = launch("node", ["dist/main.js"], { ...env, LOYALTY_MOCK_PORT: String(port) });
  await waitForHttp(`${base}/__mock/health`, server, timeoutMs);
  return { server, port, base };
}
