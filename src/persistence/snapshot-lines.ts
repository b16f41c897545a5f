import { COLLECTION_NAMES, type ProjectDocument } from "../domain/projects/project-document.js";
import type { Snapshot } from "../domain/projects/snapshots.js";
import { keyFieldOf } from "../domain/projects/stores.js";
import { stringifyExact } from "../platform/exact-json.js";

/**
 * How far past where the last shared record was found a snapshot's record is looked for, as the same object: a few
 * records deleted since are stepped over, and a record nobody shares costs this many comparisons, never a scan.
 */
const LOOK_AHEAD = 64;
/**
 * How far a record nobody shares is looked for by its key, to find where it stands: a record written anew keeps
 * its place in its store, so the walk goes on from there. A stretch of more deleted records than this, in a row,
 * loses the walk's place until records match again; what follows is still written, whole.
 */
const FIND_PLACE = 4096;

/** Records a snapshot may share, in order, and how far they were walked. */
interface Source {
  /** The `f` of its `srun` lines: another snapshot's name, or undefined for the fixtures. */
  from: string | undefined;
  records: readonly unknown[];
  next: number;
}

/**
 * Where `record` stands in `source`: the same object within the look-ahead, or found by its key further on. A
 * record of that key that is another object was written over since: the walk goes on past it, and nothing is
 * shared (undefined).
 */
function locate(source: Source, record: unknown, key: string): number | undefined {
  const { records, next } = source;
  const near = Math.min(records.length, next + LOOK_AHEAD);
  for (let i = next; i < near; i++) if (records[i] === record) return i;
  const value = (record as Record<string, unknown>)[key];
  const far = Math.min(records.length, next + FIND_PLACE);
  for (let i = next; i < far; i++) {
    const candidate = records[i] as Record<string, unknown>;
    if (candidate === record) return i;
    if (candidate[key] !== value) continue;
    source.next = i + 1;
    return undefined;
  }
  return undefined;
}

/**
 * A named snapshot as log lines, made one at a time as they are written: its `snap` line, then its records in
 * export order. A snapshot shares the project's records, so most of them are objects the file holds already,
 * in the same order: the fixtures' own (unchanged since the project was built) or the previous snapshot's (`base`,
 * for records the API wrote before both). Each run of them is one `srun` line (`i`: the first, `m`: how many, `f`:
 * the snapshot, or none for the fixtures), read back as those same objects, so a restart shares them as the
 * server did; every other record is an `sput` line of its own. A million-card snapshot with a thousand changes is
 * a few thousand lines, and 20 of them hold a record the API wrote once, not 20 times.
 *
 * `fixtures` and `base` are what the file holds where these lines go: the fixtures when the snapshot was saved
 * and another snapshot saved before it (never one of the same name, which its `snap` line replaces).
 */
export function* snapshotLines(
  projectId: string,
  snapshot: Snapshot,
  fixtures: Readonly<ProjectDocument>,
  base?: Snapshot,
): Generator<string> {
  const { document } = snapshot;
  const p = JSON.stringify(projectId);
  const n = JSON.stringify(snapshot.name);
  const head = {
    o: "snap",
    p: projectId,
    n: snapshot.name,
    t: new Date(snapshot.savedAt).toISOString(),
    at: new Date(snapshot.clockAt).toISOString(),
    h: document.project,
  };
  yield `${stringifyExact(head)}\n`;
  for (const c of COLLECTION_NAMES) {
    const sources: Source[] = [{ from: undefined, records: fixtures[c], next: 0 }];
    if (base && base.name !== snapshot.name)
      sources.unshift({ from: base.name, records: base.document[c], next: 0 });
    const put = (record: unknown) =>
      `{"o":"sput","p":${p},"n":${n},"c":"${c}","r":${stringifyExact(record)}}\n`;
    const run = (source: Source, first: number, count: number) =>
      `{"o":"srun","p":${p},"n":${n},"c":"${c}",${source.from === undefined ? "" : `"f":${JSON.stringify(source.from)},`}"i":${first},"m":${count}}\n`;
    yield* collectionLines(document[c] as readonly unknown[], sources, keyFieldOf(c), put, run);
  }
}

/** One collection's records as runs of what `sources` hold (the first source that has one wins) and puts. */
function* collectionLines(
  records: readonly unknown[],
  sources: Source[],
  key: string,
  put: (record: unknown) => string,
  run: (source: Source, first: number, count: number) => string,
): Generator<string> {
  let current: Source | undefined;
  let first = 0;
  let count = 0;
  for (const record of records) {
    if (current && current.records[first + count] === record) {
      count += 1;
      current.next = first + count;
      continue;
    }
    if (current) yield run(current, first, count);
    current = undefined;
    for (const source of sources) {
      const found = locate(source, record, key);
      if (found === undefined) continue;
      current = source;
      first = found;
      count = 1;
      source.next = found + 1;
      break;
    }
    if (!current) yield put(record);
  }
  if (current) yield run(current, first, count);
}
