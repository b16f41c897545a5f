import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/process.js";

/**
 * The container tier's handle on Docker: the image under test, and every container, volume and network a test
 * makes labelled with this run's id, so that `removeAll` leaves nothing behind even after a failed test.
 */
export const IMAGE = process.env.LOYALTY_MOCK_IMAGE ?? "loyalty-mock:test";
export const DOCKER = process.env.DOCKER ?? "docker";
export const RUN_ID = randomBytes(4).toString("hex");
/** Put on everything made here; `docker ... --filter label=` finds them. */
export const LABEL = `loyalty-mock-test=${RUN_ID}`;
export const ADMIN = "X-Mock-Admin-Token";

export function docker(args: string[], timeout = 60_000, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(DOCKER, args, { encoding: "utf8", stdio: "pipe", timeout, env }).trim();
}

/** What the container wrote, stdout and stderr together (`docker logs` gives each on its own stream). */
export function logs(container: string): string {
  const run = spawnSync(DOCKER, ["logs", container], { encoding: "utf8", timeout: 10_000 });
  return `${run.stdout}${run.stderr}`;
}

/** A name unique to this run, for a container or a volume. */
export const unique = (what: string) => `lm-${what}-${RUN_ID}`;

/** `docker run -d` with this run's label: the container's id. */
export function runDetached(args: string[], image = IMAGE, command: string[] = []): string {
  return docker(["run", "-d", "--label", LABEL, ...args, image, ...command]);
}

/** The host port Docker published for the container's `port` on 127.0.0.1. */
export function hostPort(container: string, port = 3000): number {
  const line = docker(["port", container, `${port}/tcp`]).split("\n")[0] ?? "";
  return Number(line.slice(line.lastIndexOf(":") + 1));
}

export const inspect = (container: string, format: string) => docker(["inspect", "-f", format, container]);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `GET /__mock/health` until it answers 200; its body. */
export async function healthy(base: string, headers: Record<string, string> = {}, timeoutMs = 30_000) {
  let last = "no answer";
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await pause(100)) {
    try {
      const res = await fetch(`${base}/__mock/health`, { headers, signal: AbortSignal.timeout(2000) });
      if (res.status === 200)
        return (await res.json()) as { status: string; control: string; projects: number };
      last = `status ${res.status}`;
      await res.arrayBuffer();
    } catch (error) {
      last = String(error);
    }
  }
  throw new Error(`${base}/__mock/health: no 200 within ${timeoutMs} ms (last: ${last})`);
}

/** Waits until Docker's own health check says `healthy`. */
export async function dockerHealthy(container: string, timeoutMs = 60_000): Promise<void> {
  let status = "";
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await pause(250)) {
    status = inspect(container, "{{.State.Health.Status}}");
    if (status === "healthy") return;
  }
  throw new Error(`${container}: health ${status} after ${timeoutMs} ms; logs: ${logs(container)}`);
}

/** Removes every container (with its anonymous volumes), named volume and network this run made. */
export function removeAll(): void {
  const filter = ["--filter", `label=${LABEL}`];
  const containers = docker(["ps", "-aq", ...filter])
    .split("\n")
    .filter(Boolean);
  if (containers.length > 0) docker(["rm", "-fv", ...containers]);
  const volumes = docker(["volume", "ls", "-q", ...filter])
    .split("\n")
    .filter(Boolean);
  if (volumes.length > 0) docker(["volume", "rm", "-f", ...volumes]);
  const networks = docker(["network", "ls", "-q", ...filter])
    .split("\n")
    .filter(Boolean);
  if (networks.length > 0) docker(["network", "rm", ...networks]);
}

/** The body of the first ```lang block after `heading` in a Markdown file of the repository. */
export function docBlock(file: string, heading: string, lang: string): string {
  const text = readFileSync(join(ROOT, file), "utf8");
  const at = text.indexOf(`\n${heading}\n`);
  if (at === -1) throw new Error(`${file} has no "${heading}"`);
  const start = text.indexOf(`\n\`\`\`${lang}\n`, at);
  const end = text.indexOf("\n```\n", start + 1);
  return text.slice(start + lang.length + 5, end + 1);
}

export const packageVersion = (): string =>
  (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
