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
    for (const child of Object.values(current))
      if (child !== null && typeof child === "object") pending.push(child);
  }
  return value;
}
