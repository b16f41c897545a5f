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
  credentials.appTokenDigest ??= secretDigest(secret);
  return credentials.appTokenDigest;
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
