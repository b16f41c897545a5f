import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * A function that forces a full garbage collection: the process's own `gc` when Node was started with
 * `--expose-gc`, otherwise V8's, taken from a fresh context after setting the flag at run time (the flag only
 * reaches contexts made after it, so nothing in this one changes) and unset again.
 */
export function collectGarbage(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString("--expose-gc");
  try {
    return runInNewContext("gc") as () => void;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}

/**
 * Gives the garbage of the start's load back to the system. Reading the fixtures or a state file once leaves, at a
 * million cards, some 300 MB of garbage and a heap committed for its peak, which V8 shrinks only when the process
 * has been idle long enough (docs/performance.md, "A million cards in memory"). V8's low-memory collection (full,
 * compacting, and returning free pages at once, unlike the `gc` above) is asked for through an in-process
 * inspector session, which opens no port; a Node built without the inspector gets the plain full collection.
 */
export async function releaseFreeMemory(): Promise<void> {
  let inspector: typeof import("node:inspector/promises");
  try {
    inspector = await import("node:inspector/promises");
  } catch {
    collectGarbage()();
    return;
  }
  const session = new inspector.Session();
  session.connect();
  try {
    await session.post("HeapProfiler.collectGarbage");
  } finally {
    session.disconnect();
  }
}
