/**
 * Builds a JSON document from its bytes as they arrive, never holding its text whole: each element of an array
 * that is a property of the root object (each card of an export), and each other property's value, is parsed on
 * its own by JSON.parse as soon as its last byte is in, and its bytes dropped. A state export of a big project is
 * tens or hundreds of megabytes: as one string it is held twice (bytes and text) beside the document, and past
 * V8's string limit it cannot be read at all.
 *
 * Only a root object or array is taken (JSON's strict mode, as body-parser's; a byte order mark is the caller's
 * to drop); the value is the one JSON.parse
 * gives for the same text, own `__proto__` properties included (streaming parsers that assemble objects with
 * Object.assign lose those). A syntax error is JSON.parse's for the piece it is in, or one of the same kind.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const isOpen = (byte: number) => byte === 0x7b || byte === 0x5b;
const isClose = (byte: number) => byte === 0x7d || byte === 0x5d;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** Where the reader is in the root: before a key, inside one, before its colon, before or in a value. */
type At =
  | "start"
  | "key"
  | "in-key"
  | "colon"
  | "value"
  | "in-value"
  | "in-element"
  | "element"
  | "after"
  | "end";

function unexpected(byte: number | undefined): SyntaxError {
  return new SyntaxError(
    byte === undefined
      ? "Unexpected end of JSON input"
      : `Unexpected token '${String.fromCharCode(byte)}' in JSON`,
  );
}

/**
 * Parses one piece: the text, and the root's key it belongs to (undefined in a root array). JSON.parse by default;
 * parseExact for the parts whose integers past 2^53 are kept (platform/exact-json.ts).
 */
export type PieceParser = (text: string, key: string | undefined) => unknown;

export class JsonPieces {
  readonly #parse: PieceParser;
  #root: Record<string, unknown> | unknown[] | undefined;
  #at: At = "start";
  #key = "";
  /** The array (a property of the root object, or the root itself) whose elements are read one by one. */
  #array: unknown[] | undefined;
  /** Bytes of the piece being read: whole chunks' tails, then the part of the current chunk. */
  #parts: Buffer[] = [];
  #depth = 0;
  #inString = false;
  #escaped = false;

  constructor(parse: PieceParser = (text) => JSON.parse(text)) {
    this.#parse = parse;
  }

  push(chunk: Buffer): void {
    // A piece (or key) begun in an earlier chunk goes on from this one's first byte.
    let start = this.#at === "in-key" || this.#at === "in-value" || this.#at === "in-element" ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) {
          this.#inString = false;
          if (this.#at === "in-key") {
            this.#key = this.#take(chunk, start, i + 1);
            start = -1;
            this.#at = "colon";
          }
        }
        continue;
      }
      if (this.#at === "in-value" || this.#at === "in-element") {
        if (byte === QUOTE) this.#inString = true;
        else if (isOpen(byte)) this.#depth++;
        else if (this.#depth > 0 && isClose(byte)) this.#depth--;
        else if (this.#depth === 0 && (byte === COMMA || isClose(byte))) {
          this.#end(this.#take(chunk, start, i));
          start = -1;
          i--; // the comma or bracket is the root's to read
        }
        continue;
      }
      if (isSpace(byte)) continue;
      start = this.#structural(byte, i, start);
    }
    if (start >= 0) this.#parts.push(chunk.subarray(start));
  }

  /** The document, once every byte is in; a SyntaxError when it is cut short. */
  end(): unknown {
    if (this.#at !== "end" || this.#inString) throw unexpected(undefined);
    return this.#root;
  }

  /** A byte outside any piece: the root's own punctuation. Returns where a new piece starts, if one does. */
  #structural(byte: number, i: number, start: number): number {
    switch (this.#at) {
      case "start":
        if (byte === 0x7b) this.#root = {};
        else if (byte === 0x5b) this.#array = this.#root = [];
        else throw unexpected(byte);
        this.#at = byte === 0x7b ? "key" : "element";
        return start;
      case "key":
        if (byte === QUOTE) {
          this.#inString = true;
          this.#at = "in-key";
          return i;
        }
        if (byte === 0x7d && Object.keys(this.#root as object).length === 0) return this.#close();
        throw unexpected(byte);
      case "colon":
        if (byte !== COLON) throw unexpected(byte);
        this.#at = "value";
        return start;
      case "value":
        if (byte === 0x5b) {
          this.#array = [];
          this.#set(this.#array);
          this.#at = "element";
          return start;
        }
        return this.#startPiece("in-value", byte, i);
      case "element":
        if (byte === 0x5d && this.#array?.length === 0) return this.#closeArray();
        return this.#startPiece("in-element", byte, i);
      case "after":
        if (byte === COMMA) this.#at = this.#array ? "element" : "key";
        else if (byte === 0x5d && this.#array) return this.#closeArray();
        else if (byte === 0x7d && !this.#array && !Array.isArray(this.#root)) return this.#close();
        else throw unexpected(byte);
        return start;
      default:
        throw unexpected(byte);
    }
  }

  #startPiece(at: At, byte: number, i: number): number {
    this.#at = at;
    this.#depth = isOpen(byte) ? 1 : 0;
    if (byte === QUOTE) this.#inString = true;
    else if (isClose(byte) || byte === COMMA) throw unexpected(byte);
    return i;
  }

  #take(chunk: Buffer, start: number, end: number): string {
    const parts = this.#parts;
    this.#parts = [];
    parts.push(chunk.subarray(start, end));
    return Buffer.concat(parts).toString("utf8");
  }

  #end(text: string): void {
    const key =
      this.#array !== undefined && this.#array === this.#root ? undefined : (JSON.parse(this.#key) as string);
    const value: unknown = this.#parse(text, key);
    if (this.#at === "in-element") (this.#array as unknown[]).push(value);
    else this.#set(value);
    this.#at = "after";
  }

  /** Sets a property of the root as JSON.parse does: an own property, even one named `__proto__`. */
  #set(value: unknown): void {
    const key = JSON.parse(this.#key) as string;
    Object.defineProperty(this.#root, key, { value, writable: true, enumerable: true, configurable: true });
  }

  #closeArray(): number {
    if (this.#array === this.#root) return this.#close();
    this.#array = undefined;
    this.#at = "after";
    return -1;
  }

  #close(): number {
    this.#at = "end";
    return -1;
  }
}
