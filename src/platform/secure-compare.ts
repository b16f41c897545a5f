import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Compares two secrets in time independent of where they differ and of their lengths: both sides are hashed to
 * the same length first, so neither a prefix nor a length leaks through timing.
 */
export function secureEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}
