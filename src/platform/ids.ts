import { randomBytes, randomFillSync, randomInt } from "node:crypto";

const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/**
 * Random bytes from the CSPRNG, drawn a pool at a time. Every request needs some (its request id; a token, a
 * customer, a publication), and one call into the CSPRNG per id was measured as a hot spot; Node's own
 * crypto.randomUUID keeps such a cache for the same reason. Each byte is handed out once and never again.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

/**
 * The next `count` unused random bytes, as a view of the pool: read them at once, before the next call can refill
 * it.
 */
function randomView(count: number): Buffer {
  if (count > POOL_BYTES) return randomBytes(count);
  if (poolOffset + count > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const view = pool.subarray(poolOffset, poolOffset + count);
  poolOffset += count;
  return view;
}

/** A random string over `charset`, drawn without modulo bias. */
export function randomString(length: number, charset: string = ALPHANUMERIC): string {
  const size = charset.length;
  if (size > 256) {
    let out = "";
    for (let i = 0; i < length; i++) out += charset[randomInt(size)];
    return out;
  }
  // A byte picks a character when it falls below the largest multiple of the charset's size that fits in a byte;
  // the rest are skipped, so every character stays equally likely.
  const limit = 256 - (256 % size);
  let out = "";
  while (out.length < length) {
    const bytes = randomView(length - out.length);
    for (const byte of bytes) if (byte < limit) out += charset[byte % size];
  }
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
  return `${prefix}_${randomView(9).toString("hex")}`;
}

/** Request ids drawn per refill of their own pool of hex text. */
const REQUEST_IDS_PER_REFILL = 256;
let requestIdHex = "";
let requestIdOffset = 0;

/**
 * `v-` + 18 lowercase hex characters, as the real service writes request ids. Every request needs one, so the hex
 * text of many is made at once and each id takes the next unused 18 characters of it.
 */
export function requestId(): string {
  if (requestIdOffset === requestIdHex.length) {
    requestIdHex = randomView(9 * REQUEST_IDS_PER_REFILL).toString("hex");
    requestIdOffset = 0;
  }
  const id = requestIdHex.slice(requestIdOffset, requestIdOffset + 18);
  requestIdOffset += 18;
  return `v-${id}`;
}

/** Opaque bearer secrets: 32 bytes from the CSPRNG, base64url. */
export function secretToken(bytes = 32): string {
  return randomView(bytes).toString("base64url");
}
