import { createHmac, randomBytes, randomFillSync, randomInt } from "node:crypto";
import { v4 as uuidv4 } from "uuid";

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
  return stringFrom(randomView, length, charset);
}

/** A string over `charset` from the bytes `draw` gives, without modulo bias. */
function stringFrom(draw: (count: number) => Buffer, length: number, charset: string): string {
  const size = charset.length;
  if (size > 256) {
    let out = "";
    for (let i = 0; i < length; i++) out += charset[drawInt(draw, size)];
    return out;
  }
  // A byte picks a character when it falls below the largest multiple of the charset's size that fits in a byte;
  // the rest are skipped, so every character stays equally likely.
  const limit = 256 - (256 % size);
  const codes = latin1Codes(charset);
  if (codes !== undefined) {
    // The same draws and picks as the loop below, written as bytes and read as one string: an assignment makes a
    // dozen ids, and a string grown a character at a time is a new string per character.
    const out = Buffer.allocUnsafe(length);
    let written = 0;
    while (written < length) {
      const bytes = draw(length - written);
      for (let i = 0; i < bytes.length; i++) {
        const byte = bytes[i] as number;
        if (byte < limit) out[written++] = codes[byte % size] as number;
      }
    }
    return out.toString("latin1");
  }
  let out = "";
  while (out.length < length) {
    const bytes = draw(length - out.length);
    for (const byte of bytes) if (byte < limit) out += charset[byte % size];
  }
  return out;
}

/** Charsets seen, with their characters' codes when every one is a single Latin-1 byte (undefined otherwise). */
const charsetCodes = new Map<string, Uint8Array | undefined>();
/** A campaign's code config brings its own charset; past this many, codes are worked out on each call. */
const MAX_CHARSETS_KEPT = 256;

function latin1Codes(charset: string): Uint8Array | undefined {
  if (charsetCodes.has(charset)) return charsetCodes.get(charset);
  let codes: Uint8Array | undefined = new Uint8Array(charset.length);
  for (let i = 0; i < charset.length; i++) {
    const code = charset.charCodeAt(i);
    if (code > 0xff) {
      codes = undefined;
      break;
    }
    codes[i] = code;
  }
  if (charsetCodes.size < MAX_CHARSETS_KEPT) charsetCodes.set(charset, codes);
  return codes;
}

/**
 * v1 resources carry a prefix and 24 random alphanumerics (the real service uses 24 to 32); v2 resources a prefix
 * and 18 lowercase hex characters (docs/reference/operations.md, "Errors" and "Creating a tier: the rules").
 */
export function v1Id(prefix: string): string {
  return `${prefix}_${randomString(24)}`;
}

export function v2Id(prefix: string): string {
  return `${prefix}_${hex18()}`;
}

/** Ids drawn per refill of the pool of hex text. */
const HEX_IDS_PER_REFILL = 256;
let hexText = "";
let hexOffset = 0;

/**
 * 18 lowercase hex characters (9 random bytes), as request ids and v2 ids carry. Every request needs one and a
 * card assignment a dozen, so the hex text of many is made at once and each takes the next unused 18 characters
 * of it: no Buffer view and no hex conversion per id.
 */
function hex18(): string {
  if (hexOffset === hexText.length) {
    hexText = randomView(9 * HEX_IDS_PER_REFILL).toString("hex");
    hexOffset = 0;
  }
  const hex = hexText.slice(hexOffset, hexOffset + 18);
  hexOffset += 18;
  return hex;
}

/** `v-` + 18 lowercase hex characters, as the real service writes request ids. */
export function requestId(): string {
  return `v-${hex18()}`;
}

/** Opaque bearer secrets: 32 bytes from the CSPRNG, base64url. */
export function secretToken(bytes = 32): string {
  return randomView(bytes).toString("base64url");
}

/**
 * A UUID v4 (RFC 9562) from 16 bytes, the service's kind of app ids and app tokens: uuid's v4 sets the version and
 * variant bits on the bytes it is given, which come from the CSPRNG pool or from a seeded project's stream.
 */
function uuidFrom(bytes: Buffer): string {
  return uuidv4({ random: bytes });
}

/** An integer in [0, size) from `draw`, by rejection: only the rare charsets over 256 characters need it. */
function drawInt(draw: (count: number) => Buffer, size: number): number {
  if (draw === randomView) return randomInt(size);
  const limit = 2 ** 32 - (2 ** 32 % size);
  for (;;) {
    const value = draw(4).readUInt32BE(0);
    if (value < limit) return value % size;
  }
}

/**
 * Where every value the server makes up comes from: resource ids, card codes, tokens, request ids, webhook ids and
 * secrets, project ids and keys. Each project has one (Project.ids) and the server one more, for what belongs to
 * no project (a control call's request id, a created project's id).
 */
export interface IdSource {
  /** Whether the values follow from a seed (and are therefore predictable). */
  readonly seeded: boolean;
  v1Id(prefix: string): string;
  v2Id(prefix: string): string;
  requestId(): string;
  secretToken(bytes?: number): string;
  randomString(length: number, charset?: string): string;
  uuid(): string;
  hex(bytes: number): string;
  /**
   * Another stream of the same seed, named by `salt`, whatever this one has drawn: the same salt gives the same
   * values. The CSPRNG has no streams: it answers itself.
   */
  branch(salt: string): IdSource;
}

/** The CSPRNG, through the pools above: what every server without a seed uses. */
export const randomIds: IdSource = {
  seeded: false,
  v1Id,
  v2Id,
  requestId,
  secretToken,
  randomString,
  uuid: () => uuidFrom(randomView(16)),
  hex: (bytes) => randomView(bytes).toString("hex"),
  branch: () => randomIds,
};

/**
 * Values that follow from a seed: the same seed and scope give the same values in the same order. The scope's key
 * is HMAC-SHA256(seed, scope) and the bytes are a counter-mode stream (block n is HMAC-SHA256(key, n)), so each
 * scope (a project, the server) draws from its own stream and traffic on one never shifts another's values.
 * Predictable by design: for tests only, never for credentials anyone relies on.
 */
export class SeededIds implements IdSource {
  readonly seeded = true;
  readonly #key: Buffer;
  #counter = 0;
  #block: Buffer = Buffer.alloc(0);
  #offset = 0;

  /** `seed` and `scope`, or the key of a stream already made (a branch's). */
  constructor(seed: string | Buffer, scope: string) {
    this.#key = createHmac("sha256", seed).update(scope).digest();
  }

  branch(salt: string): SeededIds {
    return new SeededIds(this.#key, `branch\u0000${salt}`);
  }

  #draw = (count: number): Buffer => {
    const out = Buffer.alloc(count);
    let filled = 0;
    while (filled < count) {
      if (this.#offset === this.#block.length) {
        const counter = Buffer.alloc(8);
        counter.writeBigUInt64BE(BigInt(this.#counter++));
        this.#block = createHmac("sha256", this.#key).update(counter).digest();
        this.#offset = 0;
      }
      const take = Math.min(count - filled, this.#block.length - this.#offset);
      this.#block.copy(out, filled, this.#offset, this.#offset + take);
      this.#offset += take;
      filled += take;
    }
    return out;
  };

  v1Id(prefix: string): string {
    return `${prefix}_${this.randomString(24)}`;
  }

  v2Id(prefix: string): string {
    return `${prefix}_${this.hex(9)}`;
  }

  requestId(): string {
    return `v-${this.hex(9)}`;
  }

  secretToken(bytes = 32): string {
    return this.#draw(bytes).toString("base64url");
  }

  randomString(length: number, charset: string = ALPHANUMERIC): string {
    return stringFrom(this.#draw, length, charset);
  }

  uuid(): string {
    return uuidFrom(this.#draw(16));
  }

  hex(bytes: number): string {
    return this.#draw(bytes).toString("hex");
  }
}

/** A project's source: seeded from its own seed or the server's, else the CSPRNG. */
export function idSourceFor(seed: string | undefined, scope: string): IdSource {
  return seed === undefined ? randomIds : new SeededIds(seed, scope);
}
