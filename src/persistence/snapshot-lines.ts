import { COLLECTION_NAMES, type ProjectDocument } from "../domain/projects/project-document.js";
import type { Snapshot } from "../domain/projects/snapshots.js";
import { stringifyExact } from "../platform/exact-json.js";

/**
 * How far past where the last shared record was found a snapshot's record is looked for: a few records deleted
 * or changed since are stepped over, and a record nobody shares costs this many comparisons, never a scan.
 */
const LOOK_AHEAD = 64;

/** Records a snapshot may share, in order, and how far they were walked. */
interface Source {
  /** The `f` of its `srun` lines: another snapshot's name, or undefined for the fixtures. */
  from: string | undefined;
  records: readonly unknown[];
  next: number;
}

function indexIn(source: Source, record: unknown): number | undefined {
  const { records, next } = source;
  const end = Math.min(records.length, next + LOOK_AHEAD);
  for (let i = next; i < end; i++) if (records[i] === record) return i;
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
    const run = (source: Source, first: number, count: number) =>
      `{"o":"srun","p":${p},"n":${n},"c":"${c}",${source.from === undefined ? "" : `"f":${JSON.stringify(source.from)},`}"i":${first},"m":${count}}\n`;
    let current: Source | undefined;
    let first = 0;
    let count = 0;
    for (const record of document[c] as readonly unknown[]) {
      if (current && current.records[first + count] === record) {
        count += 1;
        current.next = first + count;
        continue;
      }
      if (current) yield run(current, first, count);
      current = undefined;
      for (const source of sources) {
        const found = indexIn(source, record);
        if (found === undefined) continue;
        current = source;
        first = found;
        count = 1;
        source.next = found + 1;
        break;
      }
      if (!current) yield `{"o":"sput","p":${p},"n":${n},"c":"${c}","r":${stringifyExact(record)}}\n`;
    }
    if (current) yield run(current, first, count);
  }
}
