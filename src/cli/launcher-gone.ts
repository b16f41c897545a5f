import { readFileSync } from "node:fs";

/**
 * A launcher already gone when the server starts (issue 47). `bash -c 'npx loyalty-mock & exit 0'` exits before
 * npm has even started the bin, and `bash -c 'node dist/main.js & exit 0'` before node runs a line: whoever
 * started the server has exited, so the watch of launcher.ts, taken as the server starts, finds nothing to watch
 * (or only npm, alive and waiting on the server), and the server held its port for ever.
 *
 * The process that was left is the server itself, or one of the processes that only run it: npm (`npx`,
 * `npm exec`, `npm start`), the shell npm runs the bin with, a subshell (`(cd app && npx loyalty-mock) &`),
 * `env`, each started within the minute before the server (a shell running for longer is a script or an agent of
 * its own, not a step of this start). The kernel gave it to init or to a subreaper, which is in another session:
 * a process inherits its session from the process that forks it, so a parent in another session did not start
 * it. A parent that did start it on purpose shares its session (tini, Docker's `--init`, a container whose init
 * is a shell), or the process leads a session of its own (systemd, dumb-init, setsid, a terminal's shell); a
 * server that is PID 1 or whose parent is outside its PID namespace (`docker run`, `docker exec`) has no launcher
 * here at all. Linux only: it reads /proc.
 */

/** What /proc says of a process: parent, session, start (clock ticks since boot) and program name. */
export interface ProcessInfo {
  ppid: number;
  session: number;
  start: number;
  name: string;
}

/** /proc/<pid>/stat (fields 4, 6 and 22 of proc(5)) and the program's name from its command line. */
function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // npm sets its title (`npm exec loyalty-mock ...`); a login shell's name starts with a dash.
    const first = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]?.trim().split(" ")[0] ?? "";
    return {
      ppid: Number(fields[1]),
      session: Number(fields[3]),
      start: Number(fields[19]),
      name: (first.split("/").pop() ?? "").replace(/^-/, ""),
    };
  } catch {
    return undefined;
  }
}

/** Programs that only run the next one in a start: npm, a shell, env. */
const PASS_THROUGH = /^(npm|npx|sh|bash|dash|zsh|ksh|mksh|ash|env)$/;
/** /proc counts start times in ticks of 1/100 s (USER_HZ) whatever the kernel's own rate. */
const A_MINUTE = 60 * 100;

/** The topmost process of this start: climbs from `self` through the processes that only run it. */
function startedProcess(self: number, read: (pid: number) => ProcessInfo | undefined): number {
  const server = read(self);
  let child = self;
  for (let depth = 0; server && depth < 6; depth++) {
    const ppid = read(child)?.ppid ?? 0;
    const parent = ppid > 1 ? read(ppid) : undefined;
    const passing =
      parent !== undefined &&
      PASS_THROUGH.test(parent.name) &&
      parent.session === server.session &&
      server.start - parent.start <= A_MINUTE;
    if (!passing) break;
    child = ppid;
  }
  return child;
}

/**
 * Why this server has no launcher left though it was started by one (a sentence), or undefined when it has one,
 * or was started on purpose without one. `self` and `read` are for tests.
 */
export function launcherGoneAtStart(
  self = process.pid,
  read: (pid: number) => ProcessInfo | undefined = processInfo,
): string | undefined {
  if (self === 1) return undefined;
  const top = startedProcess(self, read);
  const child = read(top);
  // A session of its own: started on purpose with nothing above it to follow (systemd, dumb-init, setsid).
  if (child === undefined || child.ppid === 0 || child.session === top) return undefined;
  const parent = read(child.ppid);
  if (parent === undefined || parent.session === child.session) return undefined;
  return top === self
    ? `the process that started it had already exited (its parent is now process ${child.ppid})`
    : `the process that started ${child.name} had already exited (${child.name}, process ${top}, which runs it, now has process ${child.ppid} as its parent)`;
}
