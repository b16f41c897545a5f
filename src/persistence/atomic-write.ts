import * as fs from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** The few file operations an atomic write needs; tests pass their own to fail a step on purpose. */
export interface FileIo {
  open(path: string, flags: string, mode?: number): Promise<FileLike>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

interface FileLike {
  writeFile(data: string, encoding: "utf8"): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export const nodeFileIo: FileIo = {
  open: (path, flags, mode) => fs.open(path, flags, mode),
  rename: fs.rename,
  unlink: fs.unlink,
};

/** Platforms where a directory cannot be opened for fsync (Windows) say so with one of these. */
const NO_DIRECTORY_SYNC = new Set(["EISDIR", "EPERM", "EACCES", "EINVAL"]);

/** The temporary file a write goes through: next to the target, so the rename stays within one file system. */
export function tempFileFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.tmp`);
}

/**
 * Replaces `file` with `data` so that a crash at any moment leaves either the old file or the new one, never a
 * mix: the data goes to a temporary file that is flushed to disk, renamed over the target (atomic on POSIX), and
 * the directory is flushed so the rename itself survives a power cut. Mode 0600: the file holds API secrets.
 */
export async function writeFileAtomic(file: string, data: string, io: FileIo = nodeFileIo): Promise<void> {
  const temp = tempFileFor(file);
  try {
    const handle = await io.open(temp, "w", 0o600);
    try {
      await handle.writeFile(data, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await io.rename(temp, file);
  } catch (error) {
    await io.unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(file), io);
}

export async function syncDirectory(dir: string, io: FileIo = nodeFileIo): Promise<void> {
  let handle: FileLike | undefined;
  try {
    handle = await io.open(dir, "r");
    await handle.sync();
  } catch (error) {
    if (!NO_DIRECTORY_SYNC.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
  } finally {
    await handle?.close();
  }
}
