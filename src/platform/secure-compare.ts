import { hash, timingSafeEqual } from "node:crypto";

/**
 * A secret's SHA-256. Secrets are compared through their digests, which all have the same length, so neither a
 * prefix nor a length leaks through timing. `crypto.hash` is the one-shot form: it costs a fraction of
 * createHash().update().digest(), and every authenticated request needs one.
 */
export function secretDigest(secret: string): Buffer {
  return hash("sha256", secret, "buffer");
}

/** Compares two secrets in time independent of where they differ and of their lengths. */
export function secureEqual(a: string, b: string): boolean {
  return timingSafeEqual(secretDigest(a), secretDigest(b));
}

/** Compares a presented secret's digest with a stored secret's digest, in constant time. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return timingSafeEqual(a, b);
}
