import { digestsEqual, secretDigest } from "../../platform/secure-compare.js";
import type { ApiKey } from "./api-key.js";

/** The part of a request's credentials a secret comparison reads, and where it keeps the presented digest. */
export interface PresentedSecret {
  appToken?: string | undefined;
  appTokenDigest?: Buffer;
}

/**
 * Key secrets are compared digest to digest (platform/secure-compare.ts). A key's digest is made once per secret
 * rather than on every request: regenerating the secret, or a new key object, makes a new one.
 */
const keyDigests = new WeakMap<ApiKey, { of: string; digest: Buffer }>();
/** Compared against when the app id is unknown, so an unknown id costs the same time as a wrong secret. */
const DUMMY_DIGEST = secretDigest("0".repeat(64));

function storedDigest(key: ApiKey): Buffer {
  const cached = keyDigests.get(key);
  // Is the cached digest still the key's (a regeneration replaces the secret in place)? Both sides are the
  // server's own values, never the caller's, so this comparison leaks nothing.
  if (cached !== undefined && cached.of === key.app_token) return cached.digest;
  const digest = secretDigest(key.app_token);
  keyDigests.set(key, { of: key.app_token, digest });
  return digest;
}

/**
 * The presented secret's digest, made once per request's credentials: the request is attributed to its project
 * (journal, faults, rate limit) and then authenticated, and both compare the same secret.
 */
function presentedDigest(credentials: PresentedSecret, secret: string): Buffer {
  credentials.appTokenDigest ??= recentDigest(secret);
  return credentials.appTokenDigest;
}

/**
 * The digests of the last secrets presented, by secret. A client sends the same secret on every call, and hashing
 * it was 4-9% of a request's CPU (docs/performance.md); a hit is a map lookup instead. Comparisons still run digest
 * to digest in constant time. What a hit can tell by its timing is only that this exact string was presented
 * lately, which says nothing to whoever does not hold it already.
 */
const recentDigests = new Map<string, Buffer>();
const RECENT_DIGESTS = 64;

function recentDigest(secret: string): Buffer {
  let digest = recentDigests.get(secret);
  if (digest === undefined) {
    digest = secretDigest(secret);
    // Oldest first out: a stream of wrong secrets cannot grow the map.
    if (recentDigests.size >= RECENT_DIGESTS)
      recentDigests.delete(recentDigests.keys().next().value as string);
    recentDigests.set(secret, digest);
  }
  return digest;
}

/**
 * Whether the request's X-App-Token is `key`'s secret, in constant time. Without a key (an unknown app id) the
 * same work is done against a dummy, so the answer takes as long as for a wrong secret.
 */
export function keySecretMatches(key: ApiKey | undefined, credentials: PresentedSecret): boolean {
  if (credentials.appToken === undefined) return false;
  const presented = presentedDigest(credentials, credentials.appToken);
  const matches = digestsEqual(key === undefined ? DUMMY_DIGEST : storedDigest(key), presented);
  return key !== undefined && matches;
}
