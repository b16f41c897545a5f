import { randomBytes, randomInt } from "node:crypto";

const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A random string over `charset`, drawn without modulo bias. */
export function randomString(length: number, charset: string = ALPHANUMERIC): string {
  let out = "";
  for (let i = 0; i < length; i++) out += charset[randomInt(charset.length)];
  return out;
}

/**
 * v1 resources carry a prefix and 24 random alphanumerics (the real service uses 24 to 32); v2 resources a prefix
 * and 18 lowercase hex characters (FIDELITY.md "Ids").
 */
export function v1Id(prefix: string): string {
  return `${prefix}_${randomString(24)}`;
}

export function v2Id(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString("hex")}`;
}

const REQUEST_ID_BYTES = 9;
/** Request ids drawn per refill of the pool. */
const POOL_IDS = 512;
let pool = "";
let poolOffset = 0;

/**
 * `v-` + 18 lowercase hex characters, as the real service writes request ids. Every request needs one, so the
 * CSPRNG is asked for a pool of ids at a time (one call instead of one per request, measured as a hot spot) and
 * each id takes the next unused 9 bytes of it: still crypto randomness, never reused.
 */
export function requestId(): string {
  if (poolOffset === pool.length) {
    pool = randomBytes(REQUEST_ID_BYTES * POOL_IDS).toString("hex");
    poolOffset = 0;
  }
  const id = pool.slice(poolOffset, poolOffset + 2 * REQUEST_ID_BYTES);
  poolOffset += 2 * REQUEST_ID_BYTES;
  return `v-${id}`;
}

/** Opaque bearer secrets: 32 bytes from the CSPRNG, base64url. */
export function secretToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}
