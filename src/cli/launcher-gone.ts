import { readFileSync } from "node:fs";
import { procStat } from "./launcher.js";

/**
 * A launcher already gone when the server starts (issue 47). `bash -c 'npx loyalty-mock & exit 0'` exits before
 * npm has even started the bin, and `bash -c 'node dist/main.js & exit 0'` before node runs a line: whoever
 * started the server has exited, so the watch of launcher.ts, taken as the server starts, finds nothing to watch
 * (or only npm, alive and waiting on the server), and the server held its port for ever.
 *
 * The process that was left is the server itself, or the npm that runs it (`npx`, `npm exec`, `npm start`: npm,
 * then the shell it runs the bin with, then node). The kernel gave it to init or to a subreaper, which is in
 * another session: a process inherits its session from the process that forks it, so a parent in another session
 * did not start it. A parent that did start it on purpose shares its session (tini, Docker's `--init`), or the
 * server leads a session of its own (systemd, dumb-init, setsid); a server that is PID 1 or whose parent is outside
 * its PID namespace (`docker run`, `docker exec`) has no launcher here at all. Linux only: it reads /proc.
 */

/** A process's session and parent, from /proc/<pid>/stat (fields 4 and 6 of proc(5)). */
function sessionOf(pid: number): { ppid: number; session: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const [, ppid = "0", , session = "0"] = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { ppid: Number(ppid), session: Number(session) };
}

/** The name a process shows (npm sets its title, `npm exec loyalty-mock ...`), or "" when unknown. */
function titleOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]?.trim() ?? "";
  } catch {
    return "";
  }
}

const isNpm = (pid: number) => /^npm( |$)/.test(titleOf(pid));

/**
 * The process whose parent is the launcher: npm when npm runs this server (within the three processes above it:
 * npm, its shell, an `env` or a second shell), else this process.
 */
function launchedProcess(self: number): number {
  for (let pid = procStat(self)?.ppid ?? 0, depth = 0; pid > 1 && depth < 3; depth++) {
    if (isNpm(pid)) return pid;
    pid = procStat(pid)?.ppid ?? 0;
  }
  return self;
}

/**
 * Why this server has no launcher left though it was started by one (a sentence), or undefined when it has one,
 * or was started on purpose without one. `self` and `read` are for tests.
 */
export function launcherGoneAtStart(
  self = process.pid,
  read: (pid: number) => { ppid: number; session: number } | undefined = sessionOf,
  npmOf: (pid: number) => number = launchedProcess,
): string | undefined {
  if (self === 1) return undefined;
  const own = read(self);
  // A session of its own: started on purpose with nothing above it to follow (systemd, dumb-init, setsid).
  if (own === undefined || own.session === self) return undefined;
  const launched = npmOf(self);
  const child = launched === self ? own : read(launched);
  if (child === undefined || child.ppid === 0 || child.session === launched) return undefined;
  const parent = read(child.ppid);
  if (parent === undefined || parent.session === child.session) return undefined;
  return launched === self
    ? `the process that started it had already exited (its parent is now process ${child.ppid})`
    : `the process that started npm had already exited (npm, process ${launched}, now has process ${child.ppid} as its parent)`;
}
