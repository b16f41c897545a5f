import { type FileIo, nodeFileIo } from "../../src/persistence/atomic-write.js";
import type { StateWriter } from "../../src/persistence/state-writer.js";

export type SlowIo = ReturnType<typeof slowIo>;

/**
 * File operations whose every save stops at the fsync of its data until the test lets it go on, so a save lasts
 * exactly as long as the test wants; with `failing`, a save let go then fails at the rename.
 */
export function slowIo() {
  const held: (() => void)[] = [];
  let arrived: () => void = () => undefined;
  let failing = false;
  const io: FileIo = {
    open: async (path, flags, mode) => {
      const handle = await nodeFileIo.open(path, flags, mode);
      if (flags !== "w") return handle;
      return {
        writeFile: (data, encoding) => handle.writeFile(data, encoding),
        sync: async () => {
          await new Promise<void>((resolve) => {
            held.push(resolve);
            arrived();
          });
          await handle.sync();
        },
        close: () => handle.close(),
      };
    },
    rename: async (from, to) => {
      if (failing) throw Object.assign(new Error("input/output error"), { code: "EIO" });
      await nodeFileIo.rename(from, to);
    },
    unlink: nodeFileIo.unlink,
  };
  return {
    io,
    setFailing: (value: boolean) => {
      failing = value;
    },
    /** Lets the oldest held save finish. */
    release: () => held.shift()?.(),
    /**
     * "held" once a save waits at the fsync, "idle" if the writer stopped instead: a writer that has a save to
     * start never gets idle, since it is busy with that save until the test releases it.
     */
    next: (writer: StateWriter): Promise<"held" | "idle"> =>
      Promise.race([
        held.length > 0
          ? Promise.resolve("held" as const)
          : new Promise<"held">((resolve) => {
              arrived = () => resolve("held");
            }),
        writer.whenIdle().then(() => "idle" as const),
      ]),
  };
}
