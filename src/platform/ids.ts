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

/** `v-` + 18 lowercase hex characters, as the real service writes request ids. */
export function requestId(): string {
  return `v-${randomBytes(9).toString("hex")}`;
}

/** Opaque bearer secrets: 32 bytes from the CSPRNG, base64url. */
export function secretToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}
