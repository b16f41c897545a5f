import { closeSync, openSync, readSync } from "node:fs";
import { EXACT_COLLECTIONS } from "../domain/projects/project-document.js";
import { exactUnderKeys, mayLoseDigits, parseExact, withDoubles } from "../platform/exact-json.js";
import { olderIncentives } from "./older-integers.js";

/**
 * The lines of a file in runs, each with the number of its first line, read in chunks: a state of a million cards
 * is never one string. Each chunk is cut at its last newline and decoded once, with no decoder state carried
 * across; `onBytes` sees the raw bytes of each run of whole lines before it is yielded (the snapshot's checksum is
 * taken on them, so no line is encoded back to bytes to be hashed). A line longer than the buffer grows it. A
 * last line without its newline comes alone, `ended` false. One yield per run rather than per line: a snapshot's
 * two million lines then cost no object each.
 */
export function* fileLineRuns(
  path: string,
  onBytes?: (bytes: Buffer) => void,
): Generator<{ texts: string[]; first: number; ended: boolean }> {
  const fd = openSync(path, "r");
  try {
    let buffer = Buffer.allocUnsafe(4 * 1024 * 1024);
    let kept = 0;
    let number = 0;
    for (;;) {
      if (kept === buffer.length) buffer = Buffer.concat([buffer], buffer.length * 2);
      const read = readSync(fd, buffer, kept, buffer.length - kept, null);
      if (read === 0) break;
      const filled = kept + read;
      const last = buffer.lastIndexOf(10, filled - 1);
      if (last < kept) {
        kept = filled;
        continue;
      }
      onBytes?.(buffer.subarray(0, last + 1));
      const texts = buffer.toString("utf8", 0, last).split("\n");
      yield { texts, first: number + 1, ended: true };
      number += texts.length;
      buffer.copy(buffer, 0, last + 1, filled);
      kept = filled - last - 1;
    }
    if (kept > 0) yield { texts: [buffer.toString("utf8", 0, kept)], first: number + 1, ended: false };
  } finally {
    closeSync(fd);
  }
}

/** The lines of a file with their numbers, one at a time (see fileLineRuns). */
export function* fileLines(
  path: string,
  onBytes?: (bytes: Buffer) => void,
): Generator<{ text: string; number: number; ended: boolean }> {
  for (const { texts, first, ended } of fileLineRuns(path, onBytes))
    for (let i = 0; i < texts.length; i++) yield { text: texts[i] as string, number: first + i, ended };
}

/**
 * A `same` line as snapshots write it, with no escape in its strings: half of a million-card snapshot's lines,
 * read without JSON.parse (this is about twice as fast, and any other spelling goes through JSON.parse).
 */
const SAME_LINE = /^\{"o":"same","p":"([^"\\]*)","c":"([a-z_]+)","k":"([^"\\]*)","i":(\d+)\}$/;

export function parseLine(text: string): Record<string, unknown> | undefined {
  const same = text.charCodeAt(6) === 115 ? SAME_LINE.exec(text) : null; // "s" of "same"
  if (same) return { o: "same", p: same[1], c: same[2], k: same[3], i: Number(same[4]) };
  try {
    const value = (mayLoseDigits(text) ? parseExact(text, exactWhere64Bit) : JSON.parse(text)) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A line read with its integers past 2^53 exact keeps them in a record of a collection with 64-bit fields (`c`), or
 * in those collections of a whole document (`d`); anywhere else they are the doubles JSON.parse gives. An
 * incentive's 2^63, as 0.8.0 and earlier wrote the int64 maximum, is that maximum (older-integers.ts).
 */
function exactWhere64Bit(line: unknown): unknown {
  if (typeof line !== "object" || line === null) return withDoubles(line);
  const { c, d, r } = line as { c?: unknown; d?: unknown; r?: unknown };
  if (typeof c === "string" && EXACT_COLLECTIONS.has(c)) {
    if (c === "incentives") olderIncentives(r);
    return line;
  }
  if (typeof d === "object" && d !== null) {
    exactUnderKeys(d, EXACT_COLLECTIONS);
    olderIncentives((d as { incentives?: unknown }).incentives);
    return line;
  }
  return withDoubles(line);
}

/**
 * Where the end line of a snapshot starts in a run of whole lines, or -1. Only a run's last line is looked at:
 * the server writes the end line last, and a file with anything after it fails its checksum.
 */
const END_LINE = Buffer.from('{"o":"end"');
export function endLineIn(bytes: Buffer): number {
  const start = bytes.lastIndexOf(10, bytes.length - 2) + 1;
  return bytes.subarray(start, start + END_LINE.length).equals(END_LINE) ? start : -1;
}
