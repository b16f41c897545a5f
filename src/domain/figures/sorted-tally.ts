import { addInt64, type Int64 } from "../shared/int64.js";

/** What the views read of a tally: how much lies below a key, and the smallest key. */
export interface ReadonlyTally {
  /** The count and the sum of every key below `key` (or at it, when `inclusive`). */
  below(key: number, inclusive: boolean): { count: number; sum: Int64 };
  /** The smallest key held, or undefined when none is. */
  min(): number | undefined;
}

/** A run of neighbouring keys, in ascending order, with each one's count and sum, and their totals. */
interface Chunk {
  keys: number[];
  counts: number[];
  sums: Int64[];
  count: number;
  sum: Int64;
}

/** A chunk past this many keys is split in two: an insertion moves at most this many, a query reads at most one chunk's. */
const MAX_KEYS = 1024;

/**
 * Numbers with a count and a sum each (points earned at each moment, cards at each points value), kept in order so
 * that what lies below any key is read without visiting every key: the keys sit in chunks of at most MAX_KEYS, each
 * with its totals, so a query adds up whole chunks and reads one partly, and an insertion shifts one chunk. A key
 * whose count falls to 0 leaves. Keys that come in ascending order, as times do on a clock that moves forward, go to
 * the last chunk without a search. Sums are exact at any size (addInt64, shared/int64.ts).
 */
export class SortedTally implements ReadonlyTally {
  readonly #chunks: Chunk[] = [];

  /** Adds `count` and `sum` to the key's own (a negative count and sum take away what an earlier add put). */
  add(key: number, count: number, sum: Int64): void {
    const chunks = this.#chunks;
    let c = chunks.length - 1;
    const last = chunks[c];
    if (last === undefined) {
      chunks.push({ keys: [key], counts: [count], sums: [sum], count, sum });
      return;
    }
    if (key < (last.keys[0] as number)) c = this.#chunkFor(key);
    const chunk = chunks[c] as Chunk;
    const i = lowerBound(chunk.keys, key);
    if (chunk.keys[i] !== key) {
      chunk.keys.splice(i, 0, key);
      chunk.counts.splice(i, 0, count);
      chunk.sums.splice(i, 0, sum);
    } else if ((chunk.counts[i] as number) + count === 0) {
      chunk.keys.splice(i, 1);
      chunk.counts.splice(i, 1);
      chunk.sums.splice(i, 1);
    } else {
      chunk.counts[i] = (chunk.counts[i] as number) + count;
      chunk.sums[i] = addInt64(chunk.sums[i] as Int64, sum);
    }
    chunk.count += count;
    chunk.sum = addInt64(chunk.sum, sum);
    if (chunk.keys.length === 0) chunks.splice(c, 1);
    else if (chunk.keys.length > MAX_KEYS) chunks.splice(c + 1, 0, splitOff(chunk));
    else if (count < 0) this.#mergeSmall(c);
  }

  below(key: number, inclusive: boolean): { count: number; sum: Int64 } {
    let count = 0;
    let sum: Int64 = 0;
    for (const chunk of this.#chunks) {
      const { keys } = chunk;
      const last = keys[keys.length - 1] as number;
      if (last < key || (inclusive && last === key)) {
        count += chunk.count;
        sum = addInt64(sum, chunk.sum);
        continue;
      }
      for (let i = 0; i < keys.length; i++) {
        const at = keys[i] as number;
        if (at > key || (at === key && !inclusive)) break;
        count += chunk.counts[i] as number;
        sum = addInt64(sum, chunk.sums[i] as Int64);
      }
      break;
    }
    return { count, sum };
  }

  min(): number | undefined {
    return this.#chunks[0]?.keys[0];
  }

  /**
   * Joins a chunk that shrank with a neighbour when the two together are small, so that keys that come and go (a
   * card's points moving up) never leave a trail of near-empty chunks for every query to walk.
   */
  #mergeSmall(c: number): void {
    const chunks = this.#chunks;
    for (const at of [c, c - 1]) {
      const lower = chunks[at];
      const upper = chunks[at + 1];
      if (lower === undefined || upper === undefined) continue;
      if (lower.keys.length + upper.keys.length >= MAX_KEYS / 2) continue;
      lower.keys = lower.keys.concat(upper.keys);
      lower.counts = lower.counts.concat(upper.counts);
      lower.sums = lower.sums.concat(upper.sums);
      lower.count += upper.count;
      lower.sum = addInt64(lower.sum, upper.sum);
      chunks.splice(at + 1, 1);
      return;
    }
  }

  /** The chunk a key belongs in: the last one whose first key is at most `key`, or the first. */
  #chunkFor(key: number): number {
    let low = 0;
    let high = this.#chunks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((this.#chunks[middle]?.keys[0] as number) <= key) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** The first index whose key is `key` or more (the length when none is). */
export function lowerBound(keys: readonly number[], key: number): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((keys[middle] as number) < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Moves the upper half of a full chunk into a new one, and sets both chunks' totals. */
function splitOff(chunk: Chunk): Chunk {
  const half = chunk.keys.length >>> 1;
  const upper: Chunk = {
    keys: chunk.keys.splice(half),
    counts: chunk.counts.splice(half),
    sums: chunk.sums.splice(half),
    count: 0,
    sum: 0,
  };
  for (const part of [chunk, upper]) {
    part.count = 0;
    part.sum = 0;
    for (let i = 0; i < part.keys.length; i++) {
      part.count += part.counts[i] as number;
      part.sum = addInt64(part.sum, part.sums[i] as Int64);
    }
  }
  return upper;
}
