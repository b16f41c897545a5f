import { readFileSync } from "node:fs";

/**
 * Never outliving the launcher. `npx loyalty-mock &` runs npx, which runs the bin through `sh -c`: a SIGTERM to
 * npx (`kill $!`) ends npm and the shell, and the server, reparented, would hold its port until the machine
 * stops. So the server watches the processes that started it: its parent and, on Linux, each of their ancestors
 * up to init (a CI script that exits without stopping npx leaves npx waiting on its child for ever). Once one of
 * them is gone the server shuts down as on SIGTERM.
 *
 * There is nothing to watch when the parent is already init or outside the process's PID namespace (ppid 1 or
 * 0): the server is then PID 1 of a container, or under `docker run --init`, systemd or a supervisor that
 * stops it itself.
 */

/** A process as /proc shows it: its parent, whether it has exited, and when it started (pids are reused). */
interface ProcStat {
  ppid: number;
  gone: boolean;
  startTime: string;
}

/** /proc/<pid>/stat, read after the command name, which may hold spaces and parentheses. */
export function procStat(pid: number | "self"): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // Fields 3 (state), 4 (ppid) and 22 (starttime) of proc(5), counted from 1 before the name was cut off.
  const [state = "", ppid = "0"] = fields;
  return { ppid: Number(ppid), gone: state === "Z" || state === "X", startTime: fields[19] ?? "" };
}

/** The launcher's processes: the parent, its parent, and so on up to (not including) init. */
export function ancestorsOf(parent: number): { pid: number; startTime: string }[] {
  const chain: { pid: number; startTime: string }[] = [];
  for (let pid = parent; pid > 1 && chain.length < 64; ) {
    const stat = procStat(pid);
    if (stat === undefined) break;
    chain.push({ pid, startTime: stat.startTime });
    pid = stat.ppid;
  }
  return chain;
}

/**
 * The parent's pid now. Node reads `process.ppid` once, at start (Node 20 at least), so on Linux it comes from
 * /proc; elsewhere the parent's pid as Node saw it, whose end `alive` notices instead.
 */
const currentParent = (): number => procStat("self")?.ppid ?? process.ppid;

/** Whether a process exists (a signal 0 reaches it, or it is not ours to signal). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface LauncherWatch {
  stop(): void;
}

/** The processes that started this one, as they were when it was taken. */
export interface Launcher {
  parent: number;
  ancestors: { pid: number; startTime: string }[];
}

/**
 * The launcher as it is now; undefined when there is none to watch. Taken as the process starts, before the
 * fixtures load: a launcher killed while the server starts must still be missed once it listens.
 */
export function launcherOf(ppid: () => number = currentParent): Launcher | undefined {
  const parent = ppid();
  return parent <= 1 ? undefined : { parent, ancestors: ancestorsOf(parent) };
}

/**
 * Calls `gone` once, with what went away, when the parent changes or an ancestor exits; checked every
 * `intervalMs` on a timer that never keeps the process alive. Undefined when there is no launcher to watch.
 */
export function watchLauncher(
  gone: (what: string) => void,
  { intervalMs = 500, ppid = currentParent, launcher = launcherOf(ppid) }: WatchOptions = {},
): LauncherWatch | undefined {
  if (launcher === undefined) return undefined;
  const { parent, ancestors } = launcher;
  const check = (): string | undefined => {
    if (ppid() !== parent || !alive(parent)) return `its parent process ${parent} exited`;
    for (const { pid, startTime } of ancestors) {
      const stat = procStat(pid);
      if (stat === undefined || stat.gone || stat.startTime !== startTime)
        return `the process ${pid} that started it exited`;
    }
    return undefined;
  };
  const timer = setInterval(() => {
    const what = check();
    if (what === undefined) return;
    clearInterval(timer);
    gone(what);
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

interface WatchOptions {
  intervalMs?: number;
  ppid?: () => number;
  /** Taken earlier (launcherOf); now when absent. */
  launcher?: Launcher | undefined;
}
