import {
  accessSync,
  closeSync,
  constants,
  openSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { VerifyCommand } from "./command.js";
import { VerifyConfigError } from "./config.js";

/**
 * The files a run writes (`--json`, `--record`): checked before the first call, so a typo in a path costs nothing
 * on the target (a run with writes spends a card, a tier and an incentive); written 0600, as each may name the
 * user's objects and was read from a target that is not trusted.
 */
export function checkOutputs(command: VerifyCommand): void {
  const inputs = new Map<string, string>();
  if (command.config !== undefined) inputs.set(resolve(command.config), "--config");
  if (command.replay !== undefined) inputs.set(resolve(command.replay), "--replay");
  const outputs = new Map<string, string>();
  for (const [flag, file] of [
    ["--json", command.json],
    ["--record", command.record],
  ] as const) {
    if (file === undefined) continue;
    const path = resolve(file);
    const clash = inputs.get(path) ?? outputs.get(path);
    if (clash !== undefined)
      throw new VerifyConfigError(`${flag} ${file} is the file of ${clash}: give another file`);
    outputs.set(path, flag);
    checkWritable(flag, file, path);
  }
}

function checkWritable(flag: string, file: string, path: string): void {
  const folder = dirname(path);
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // Said below.
  }
  if (!isFolder)
    throw new VerifyConfigError(`cannot write ${flag} ${file}: the folder ${folder} does not exist`);
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch {
    throw new VerifyConfigError(`cannot write ${flag} ${file}: the folder ${folder} is not writable`);
  }
  let existing: ReturnType<typeof statSync> | undefined;
  try {
    existing = statSync(path);
  } catch {
    return;
  }
  if (existing.isDirectory()) throw new VerifyConfigError(`cannot write ${flag} ${file}: it is a folder`);
}

/**
 * Writes `text` to `file` through a new file of mode 0600 beside it, renamed over the old one: the result is 0600
 * whatever mode an earlier file had, and a run that fails halfway leaves the old file whole.
 */
export function writePrivate(file: string, text: string): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  rmSync(temp, { force: true });
  const fd = openSync(temp, "wx", 0o600);
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, file);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}
