import type { ProjectRegistry } from "../../src/domain/projects/registry.js";
import { projectState } from "../../src/domain/projects/state-export.js";

/**
 * Proof that a refused request changed nothing, without exporting and serialising every project twice per case.
 *
 * A mark is the state as `exportProject` writes it (every project, plus its fault rules), with one shortcut: an
 * object that is deeply frozen is kept by reference instead of copied. Projects freeze the documents they are
 * built from and share those records, and stores write a new object rather than change one, so between cases
 * nearly every record is a frozen fixture record and a mark costs a reference per record. A frozen object cannot
 * have changed since (writing to it throws, and the server would answer 500); everything else (keys, tokens, fault
 * rules, records an earlier request stored) is copied, and compared by value. Comparing a mark with the state now
 * therefore says exactly what comparing two exports said, objects keeping their key order.
 */
export type StateMark = unknown;

/** The state to compare: read at once, never kept (it shares the projects' live records). */
function liveState(registry: ProjectRegistry): unknown {
  return registry.list().map((project) => ({ ...projectState(project), faults: project.faults.list() }));
}

export function markState(registry: ProjectRegistry): StateMark {
  return markOf(liveState(registry));
}

/** Whether the state is as it was when `mark` was taken. */
export function unchangedSince(registry: ProjectRegistry, mark: StateMark): boolean {
  return sameAs(mark, liveState(registry));
}

/** Objects known to be frozen all the way down (checked once, then remembered). */
const deepFrozen = new WeakSet<object>();

function isDeepFrozen(value: object): boolean {
  if (deepFrozen.has(value)) return true;
  if (!Object.isFrozen(value)) return false;
  for (const child of Object.values(value))
    if (child !== null && typeof child === "object" && !isDeepFrozen(child)) return false;
  deepFrozen.add(value);
  return true;
}

function markOf(value: unknown): unknown {
  if (value === null || typeof value !== "object" || isDeepFrozen(value)) return value;
  if (Array.isArray(value)) return value.map(markOf);
  // No prototype, so that an own `__proto__` key of stored metadata is copied as a key.
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, child] of Object.entries(value)) copy[key] = markOf(child);
  return copy;
}

function sameAs(mark: unknown, now: unknown): boolean {
  // The same reference is only ever a primitive or a deeply frozen object: anything else in a mark is a copy.
  if (Object.is(mark, now)) return true;
  if (mark === null || now === null || typeof mark !== "object" || typeof now !== "object") return false;
  if (Array.isArray(mark) !== Array.isArray(now)) return false;
  const keys = Object.keys(mark);
  const nowKeys = Object.keys(now);
  if (keys.length !== nowKeys.length) return false;
  const before = mark as Record<string, unknown>;
  const after = now as Record<string, unknown>;
  return keys.every((key, i) => key === nowKeys[i] && sameAs(before[key], after[key]));
}
