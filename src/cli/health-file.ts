import { readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { z } from "zod";

/**
 * The health file (LOYALTY_MOCK_HEALTH_FILE, which the image sets): where a server, once it listens, says how to
 * reach it, for the image's health check (health-check.ts) to read. The server is the one place that knows its
 * address and admin token for sure, whatever gave them (flags, variables, a settings file, a port it chose); a
 * check that worked them out from other processes' command lines (0.10.0 and earlier) took any process whose
 * arguments ended in `dist/main.js` for the server.
 *
 * One server owns the file: the first that claims it while no other running process has (a second server started
 * in the same container, `docker exec … loyalty-mock --port 4000`, leaves it alone). It holds the admin token, so
 * it is written mode 0600; that token is no more exposed than it already is, in the server's environment or
 * command line, to the same user.
 */

const healthRecord = z.object({
  pid: z.number().int().positive(),
  url: z.string().regex(/^https?:\/\//),
  admin_token: z.string().optional(),
});

export type HealthRecord = z.output<typeof healthRecord>;

/** Whether a process of that id runs (another user's answers EPERM: it runs). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The record in `file`; undefined when there is none, a problem in words when it cannot be read as one. */
export function readHealthFile(file: string): HealthRecord | { problem: string } | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { problem: `${file} cannot be read (${(error as NodeJS.ErrnoException).code})` };
  }
  try {
    return healthRecord.parse(JSON.parse(text));
  } catch {
    return { problem: `${file} is not a health file a loyalty-mock server wrote` };
  }
}

export type Claim =
  | { written: true }
  | { written: false; ownerPid: number }
  | { written: false; error: Error };

/**
 * Writes `record` (its pid the server's) to `file`, unless the file names another process that still runs. Written
 * whole or not at all: a temporary file of this process's own (created exclusively, so no link planted at its
 * name is followed) renamed over the target.
 */
export function claimHealthFile(file: string, record: HealthRecord): Claim {
  const present = readHealthFile(file);
  if (present && "pid" in present && present.pid !== record.pid && isRunning(present.pid))
    return { written: false, ownerPid: present.pid };
  const temp = `${file}.${record.pid}.tmp`;
  try {
    rmSync(temp, { force: true });
    writeFileSync(temp, `${JSON.stringify(record)}\n`, { flag: "wx", mode: 0o600 });
    renameSync(temp, file);
    return { written: true };
  } catch (error) {
    rmSync(temp, { force: true });
    return { written: false, error: error as Error };
  }
}

/** Removes `file` if it is this server's (a stopped server leaves nothing for the check to follow). */
export function releaseHealthFile(file: string, pid = process.pid): void {
  const present = readHealthFile(file);
  if (present === undefined || !("pid" in present) || present.pid !== pid) return;
  try {
    unlinkSync(file);
  } catch {
    // Gone already, or the folder is read-only now: the check then finds the pid no longer running.
  }
}
