/**
 * Part of a batch of log lines: text, or lines made only as they are written, from records that cannot change
 * (a snapshot's, a document installed whole). However large the state they describe, no string longer than a
 * chunk is ever built, so no batch can pass V8's longest string (about 512 MiB), and a failed write can make them
 * again for its retry.
 */
export type Piece = string | (() => Iterable<string>);

/**
 * About how much text one write to the log takes: made in one synchronous step (a few milliseconds of JSON), so
 * that requests between two writes wait no longer than that.
 */
const CHUNK_CHARS = 64 * 1024;

/** One batch of log lines (ChangeLog.take), ending with its commit line; empty when nothing changed. */
export class LogBatch {
  readonly pieces: readonly Piece[];

  constructor(pieces: readonly Piece[] = []) {
    this.pieces = pieces;
  }

  get empty(): boolean {
    return this.pieces.length === 0;
  }

  /** This batch, then `next`: the pieces of a failed write go again before the new ones. */
  followedBy(next: LogBatch): LogBatch {
    return next.empty ? this : this.empty ? next : new LogBatch([...this.pieces, ...next.pieces]);
  }

  /** The batch's text in chunks of about `size` characters (a line is never cut), made as they are asked for. */
  *chunks(size = CHUNK_CHARS): Generator<string> {
    let parts: string[] = [];
    let length = 0;
    for (const piece of this.pieces)
      for (const text of typeof piece === "string" ? [piece] : piece()) {
        parts.push(text);
        length += text.length;
        if (length < size) continue;
        yield parts.join("");
        parts = [];
        length = 0;
      }
    if (length > 0) yield parts.join("");
  }

  /** The whole batch as one string: for a test, or a batch known to be small. */
  text(): string {
    return [...this.chunks()].join("");
  }
}
