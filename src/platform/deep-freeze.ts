import { eachOfArray, type Steps } from "./steps.js";

/**
 * Freezes an object graph in place (iteratively, so a deep document cannot overflow the stack) and returns it.
 * Fixture documents are frozen once loaded: projects then share their records instead of copying them, and any code
 * that would change a record in place, rather than storing a new one, fails loudly in tests instead of silently
 * changing what a reset goes back to.
 */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || typeof current !== "object" || Object.isFrozen(current)) continue;
    Object.freeze(current);
    // An index loop for arrays and for-in for objects, rather than Object.values: no array of values built per
    // object (a restart freezes a million cards), and V8 reads `current[key]` in for-in through the shape's key
    // cache. Own keys only, as Object.values.
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const child: unknown = current[i];
        if (child !== null && typeof child === "object") pending.push(child);
      }
      continue;
    }
    const object = current as Record<string, unknown>;
    for (const key in object) {
      const child = object[key];
      if (child !== null && typeof child === "object" && Object.hasOwn(object, key)) pending.push(child);
    }
  }
  return value;
}

/**
 * deepFreeze a step at a time, for a document whose arrays hold many records (a project's): each array's elements
 * frozen a few hundred at a time, then the array, and the root last, so that a root found frozen still means that
 * everything under it is.
 */
export function* deepFreezeInSteps<T>(value: T): Steps<T> {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const child = object[key];
    if (Array.isArray(child) && !Object.isFrozen(child)) {
      yield* eachOfArray(child as unknown[], deepFreeze);
      Object.freeze(child);
    } else deepFreeze(child);
  }
  Object.freeze(object);
  return value;
}

/** How many records one turn of the event loop freezes: about 2 ms of checks at a million cards. */
const FREEZE_SLICE = 65_536;

/**
 * Deep-freezes every element of `lists`, a slice per turn of the event loop, so that no request waits behind a
 * million checks. Elements frozen already cost one check each (a frozen object's children are frozen too).
 */
export function freezeInSlices(lists: readonly (readonly unknown[])[]): void {
  let list = 0;
  let at = 0;
  const slice = () => {
    let left = FREEZE_SLICE;
    while (list < lists.length && left > 0) {
      const items = lists[list] as readonly unknown[];
      const end = Math.min(items.length, at + left);
      for (let i = at; i < end; i++) if (!Object.isFrozen(items[i])) deepFreeze(items[i]);
      left -= end - at;
      at = end;
      if (at === items.length) {
        list += 1;
        at = 0;
      }
    }
    if (list < lists.length) setImmediate(slice);
  };
  slice();
}
