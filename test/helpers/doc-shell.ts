import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Block, blocksOf, isSession, where } from "./doc-blocks.js";
import { freePort, ROOT } from "./process.js";

/**
 * The shell session of a page (docs/internals/doc-blocks.md): its `sh` blocks run in order in one bash, as a reader
 * pastes them into one terminal, in a new folder where `npx loyalty-mock` and `loyalty-mock` are this build. Each
 * command's output is compared with the output the page shows under it, and every HTTP answer curl gets must be
 * 2xx unless the page shows another status. Ports the page names (3000, the server's default, and 4000, the
 * webhook receiver's) are mapped to free ones, so runs never clash with each other or a developer's server.
 */

/** One command of a block, with the output the page shows for it. */
export interface Command {
  text: string;
  /** The line it starts on in the page. */
  line: number;
  /** The comment lines under it that show its output, without their `#`. */
  shown?: string[];
}

/** A comment line that starts a command's shown output: JSON, a status and its body, or curl -i's head. */
const OUTPUT_START = /^# (\{|\[|"|HTTP\/|\d{3} )/;

/** Splits a shell block into commands (quotes and `\` continuations kept together) and their shown output. */
export function commandsOf(block: Block): Command[] {
  const found: { text: string; first: number; last: number; shown?: string[] }[] = [];
  const lines = block.text.split("\n");
  let buffer: string[] = [];
  let first = 0;
  let single = false;
  let double = false;
  let output: string[] | undefined;
  for (const [index, line] of lines.entries()) {
    if (buffer.length === 0) {
      if (/^\s*#/.test(line)) {
        const last = found.at(-1);
        if (output !== undefined) output.push(line);
        else if (last && last.shown === undefined && index === last.last + 1 && OUTPUT_START.test(line)) {
          output = [line];
          last.shown = output;
        }
        continue;
      }
      output = undefined;
      if (line.trim() === "") continue;
      first = index;
    }
    buffer.push(line);
    let comment = false;
    for (let i = 0; i < line.length && !comment; i++) {
      const char = line[i];
      if (char === "\\" && !single) i++;
      else if (char === "'" && !double) single = !single;
      else if (char === '"' && !single) double = !double;
      else if (char === "#" && !single && !double && (i === 0 || /\s/.test(line[i - 1] as string)))
        comment = true;
    }
    if (!single && !double && !/\\$/.test(line)) {
      found.push({ text: buffer.join("\n"), first, last: index });
      buffer = [];
    }
  }
  if (buffer.length > 0) throw new Error(`${where(block)}: a command that never ends (an open quote?)`);
  return found.map(({ text, first: at, shown }) => ({
    text,
    line: block.line + 1 + at,
    ...(shown && { shown: shown.map((line) => line.replace(/^#\s?/, "")) }),
  }));
}

/** What `…` leaves out: anything, in the shown text. */
function pattern(text: string): RegExp {
  const parts = text.replace(/\s+/g, "").split("…");
  return new RegExp(
    `^${parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]*?")}$`,
  );
}

/** Whether `actual` is what `shown` shows, whitespace aside and `…` standing for anything. */
export function showsAs(shown: string, actual: string): boolean {
  return pattern(shown).test(actual.replace(/\s+/g, ""));
}

export interface Expectation {
  /** The status the page shows (`404 {…}`, `HTTP/1.1 501 …`), which the command's first answer must have. */
  status?: number;
  /** The head lines curl -i prints that the page shows, each among the answer's head lines. */
  head: string[];
  /** The body the page shows, or undefined when it shows none. */
  body?: string;
}

export function expectationOf(shown: readonly string[] | undefined): Expectation {
  if (shown === undefined || shown.length === 0) return { head: [] };
  const [first, ...rest] = shown as [string, ...string[]];
  const http = /^HTTP\/[\d.]+ (\d{3})/.exec(first);
  if (http) {
    const bodyAt = rest.findIndex((line) => /^\s*[{["]/.test(line));
    const head = bodyAt === -1 ? rest : rest.slice(0, bodyAt);
    return {
      status: Number(http[1]),
      head: [first, ...head],
      ...(bodyAt !== -1 && { body: rest.slice(bodyAt).join("\n") }),
    };
  }
  const status = /^(\d{3}) (.*)$/.exec(first);
  if (status) return { status: Number(status[1]), head: [], body: [status[2], ...rest].join("\n") };
  return { head: [], body: shown.join("\n") };
}

/** The problem with a command's run, or undefined when it did what the page shows. */
export function judge(expected: Expectation, run: Ran): string | undefined {
  if (run.exit !== 0) return `exit status ${run.exit}; stderr: ${run.stderr.slice(-2000)}`;
  const [first, ...others] = run.statuses;
  if (expected.status !== undefined && first !== expected.status)
    return `answered ${first ?? "nothing"}; the page shows ${expected.status}`;
  const unexpected = (expected.status === undefined ? run.statuses : others).filter(
    (status) => status < 200 || status > 299,
  );
  if (unexpected.length > 0)
    return `answered ${unexpected.join(", ")} and the page shows no such status: ${run.stdout.slice(0, 2000)}`;
  let body = run.stdout;
  if (expected.head.length > 0) {
    const split = body.search(/\r?\n\r?\n/);
    const head = (split === -1 ? body : body.slice(0, split)).split(/\r?\n/);
    body = split === -1 ? "" : body.slice(split).trim();
    for (const line of expected.head)
      if (!head.some((actual) => showsAs(line, actual)))
        return `the answer's head has no line like ${JSON.stringify(line)}: ${head.join(" | ")}`;
  }
  if (expected.body !== undefined && !showsAs(expected.body, body))
    return `printed\n${body}\nwhere the page shows\n${expected.body}`;
  return undefined;
}

export interface Ran {
  stdout: string;
  stderr: string;
  exit: number;
  /** The status of each HTTP answer curl got, in order. */
  statuses: number[];
}

/** A command that starts the server (not one of its subcommands): run as in a terminal of its own. */
const SERVES =
  /^(?:[A-Z_]+=\S*\s+)*(?:npx loyalty-mock|loyalty-mock|node_modules\/\.bin\/loyalty-mock)(?!\s+(?:wait|verify|webhooks|play|trigger|check|mcp)\b)(?:\s|$)/;
/** A command that starts something of ours in the background that says when it listens. */
const LISTENS =
  /^(?:[A-Z_]+=\S*\s+)*(?:npx loyalty-mock|loyalty-mock|node_modules\/\.bin\/loyalty-mock)(?:\s|$)/;

/** Whether a command starts the server (which a page's session then runs in the background). */
export const serves = (command: string): boolean => SERVES.test(command.replace(/\s+#[^'"]*$/, "").trimEnd());

/** Whether a page's session needs the built command (the slow tier) rather than a server the test starts. */
export function startsServer(page: string): boolean {
  return blocksOf(page)
    .filter(isSession)
    .some((block) => commandsOf(block).some((command) => SERVES.test(command.text)));
}

export interface SessionOptions {
  /** Ports the page names, mapped to the ones the run uses (3000: the server's default). */
  ports: Map<number, number>;
  env?: Record<string, string>;
}

const MARK = "@@end";

/** One bash, fed the page's commands one at a time, in a folder of its own. */
export class Session {
  readonly dir: string;
  readonly #bash: ChildProcess;
  readonly #ports: Map<number, number>;
  #out = "";
  #err = "";
  #background = 0;

  constructor(options: SessionOptions) {
    this.dir = mkdtempSync(join(tmpdir(), "loyalty-mock-docs-"));
    this.#ports = options.ports;
    // The application's folder, with this build installed: `npx loyalty-mock`, `loyalty-mock` and imports of
    // "loyalty-mock" find it. A wrapper rather than a link to dist/main.js, which the build leaves not executable.
    mkdirSync(join(this.dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(ROOT, join(this.dir, "node_modules", "loyalty-mock"));
    const bin = join(this.dir, "node_modules", ".bin", "loyalty-mock");
    writeFileSync(bin, `#!/bin/sh\nexec node ${JSON.stringify(join(ROOT, "dist", "main.js"))} "$@"\n`, {
      mode: 0o755,
    });
    writeFileSync(
      join(this.dir, "package.json"),
      JSON.stringify({ name: "app", private: true, devDependencies: { "loyalty-mock": "*" } }),
    );
    mkdirSync(join(this.dir, ".bg"));
    this.#bash = spawn("bash", ["--noprofile", "--norc"], {
      cwd: this.dir,
      detached: true,
      // A reader's terminal: none of the test run's own variables, nor any of the server's set by a developer.
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter(([name]) => !name.startsWith("LOYALTY_MOCK_")),
        ),
        PATH: `${join(this.dir, "node_modules", ".bin")}:${process.env.PATH}`,
        npm_config_offline: "true",
        npm_config_update_notifier: "false",
        NO_COLOR: "1",
        ...options.env,
      },
    });
    this.#bash.stdout?.on("data", (chunk) => {
      this.#out += chunk;
    });
    this.#bash.stderr?.on("data", (chunk) => {
      this.#err += chunk;
    });
  }

  /** The command as this run types it: ports mapped, curl's statuses written to stderr, a server sent to the background. */
  /** A text with the page's ports mapped to the run's: a command, or the output a page shows. */
  mapped(text: string): string {
    let mapped = text;
    for (const [from, to] of this.#ports)
      mapped = mapped
        .replace(new RegExp(`(localhost|127\\.0\\.0\\.1|\\[::1\\]):${from}\\b`, "g"), `$1:${to}`)
        .replace(new RegExp(`(--port|-p) ${from}\\b`, "g"), `$1 ${to}`);
    return mapped;
  }

  #prepared(text: string, foreground: boolean): { text: string; waitFor?: string } {
    let command = this.mapped(text);
    if (!/\s-w\s/.test(command))
      command = command.replace(/\bcurl /g, "curl -w '%{stderr}@@status %{http_code}\\n' ");
    const bare = command.replace(/\s+#[^'"]*$/, "").trimEnd();
    const background = /&$/.test(bare);
    if (foreground || (!background && !SERVES.test(bare))) return { text: command };
    const job = bare.replace(/\s*&$/, "");
    const n = this.#background++;
    const port = this.#ports.get(3000);
    // The server's default port is mapped like any port the page names.
    const env =
      SERVES.test(job) && !/(--port|-p)\s/.test(job) && port !== undefined
        ? `LOYALTY_MOCK_PORT=${port} `
        : "";
    const err = join(".bg", `${n}.err`);
    return {
      text: `${env}${job} > ${join(".bg", `${n}.out`)} 2> ${err} &`,
      ...(LISTENS.test(job) && { waitFor: err }),
    };
  }

  /** Runs one command; `foreground` keeps even a server's start in the foreground (a transcript's refused start). */
  async run(text: string, { timeoutMs = 60_000, foreground = false } = {}): Promise<Ran> {
    const { text: command, waitFor } = this.#prepared(text, foreground);
    this.#out = "";
    this.#err = "";
    this.#bash.stdin?.write(
      `${command}\n__s=$?; printf '\\n${MARK} %s\\n' "$__s"; printf '\\n${MARK}\\n' >&2\n`,
    );
    const deadline = Date.now() + timeoutMs;
    const done = new RegExp(`\\n${MARK} (\\d+)\\n`);
    while (!(done.test(this.#out) && this.#err.includes(`\n${MARK}\n`))) {
      if (Date.now() > deadline) throw new Error(`no end within ${timeoutMs} ms: ${command}\n${this.#err}`);
      if (this.#bash.exitCode !== null) throw new Error(`bash exited: ${this.#err}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const exit = Number(done.exec(this.#out)?.[1]);
    const stdout = this.#out.slice(0, this.#out.search(done));
    const stderr = this.#err.slice(0, this.#err.indexOf(`\n${MARK}\n`));
    const statuses = [...stderr.matchAll(/^@@status (\d{3})$/gm)].map((match) => Number(match[1]));
    if (waitFor !== undefined) await this.#listening(join(this.dir, waitFor), deadline);
    return { stdout, stderr: stderr.replace(/^@@status \d{3}\n/gm, ""), exit, statuses };
  }

  /** Waits until a background command of ours says it listens (or stops, saying why). */
  async #listening(file: string, deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      const text = existsSync(file) ? readFileSync(file, "utf8") : "";
      if (/listening on/.test(text)) return;
      if (/^loyalty-mock: (?!warning)/m.test(text) && !/listening/.test(text))
        throw new Error(`it did not start: ${text}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no "listening on" in ${file}`);
  }

  /** What a background command wrote to stdout so far. */
  backgroundOutput(n: number): string {
    const file = join(this.dir, ".bg", `${n}.out`);
    return existsSync(file) ? readFileSync(file, "utf8") : "";
  }

  /** Stops everything the page started (SIGTERM to the session's process group) and removes its folder. */
  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.#bash.once("exit", resolve));
    if (this.#bash.pid !== undefined && this.#bash.exitCode === null) {
      this.#bash.stdin?.write("kill $(jobs -p) 2>/dev/null; wait; exit 0\n");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      try {
        process.kill(-this.#bash.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Free ports for the ones a page names: the server's 3000 and the webhook receiver's 4000. */
export async function portsFor(): Promise<Map<number, number>> {
  return new Map([
    [3000, await freePort()],
    [4000, await freePort()],
  ]);
}

/** Runs a transcript block's `$ ` commands and says where what they print differs from what it shows. */
export async function runTranscript(block: Block, session: Session): Promise<string[]> {
  const problems: string[] = [];
  const parts = block.text.split(/^\$ /m).slice(1);
  for (const part of parts) {
    const [command, ...shown] = part.replace(/\n$/, "").split("\n");
    const ran = await session.run(`${command} 2>&1`, { foreground: true, timeoutMs: 30_000 });
    if (!showsAs(session.mapped(shown.join("\n")), ran.stdout))
      problems.push(
        `${where(block)}: $ ${command}\nprinted\n${ran.stdout}\nwhere the page shows\n${shown.join("\n")}`,
      );
  }
  return problems;
}

/**
 * Runs a page's session blocks and checks each `<!-- output -->` block against the command before it. Resolves to
 * the problems found, one line each with the page's line (an empty list: the page does what it shows).
 */
export async function runPage(page: string, session: Session, blocks = blocksOf(page)): Promise<string[]> {
  const problems: string[] = [];
  let last: { command: Command; ran: Ran } | undefined;
  for (const block of blocks) {
    if (block.marker?.kind === "output") {
      if (last === undefined) problems.push(`${where(block)}: an output block with no command before it`);
      else if (!showsAs(session.mapped(block.text), last.ran.stdout))
        problems.push(
          `${where(block)}: ${last.command.text}\nprinted\n${last.ran.stdout}\nwhere the page shows\n${block.text}`,
        );
      continue;
    }
    last = undefined;
    if (!isSession(block)) continue;
    for (const command of commandsOf(block)) {
      const ran = await session.run(command.text);
      const problem = judge(expectationOf(command.shown?.map((line) => session.mapped(line))), ran);
      if (problem !== undefined) problems.push(`${block.page}:${command.line}: ${command.text}\n${problem}`);
      last = { command, ran };
    }
  }
  return problems;
}
