import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { COLLECTION_NAMES, type CollectionName } from "../domain/projects/project-document.js";
import { keyFieldOf } from "../domain/projects/stores.js";
import { shareWithPrevious } from "../platform/share-values.js";
import { endLineIn, fileLineRuns, fileLines, parseLine } from "./file-lines.js";
import { KeyedRecords } from "./keyed-records.js";
import { type SavedProject, STATE_FILE_FORMAT, StateFileError } from "./state-file.js";

export const SNAPSHOT_VERSION = 2;

/** The log files beside a state file: `<name>.log.<generation>`, each holding the changes since its snapshot began. */
export function logFilesOf(file: string): { gen: number; path: string }[] {
  const prefix = `${basename(file)}.log.`;
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => ({ gen: Number(name.slice(prefix.length)), path: join(dirname(file), name) }))
    .sort((a, b) => a.gen - b.gen);
}

interface Replayed {
  fixtures: { header: unknown; collections: Record<CollectionName, unknown[]> };
  /** Whether the fixtures were posted (the `fixtures` line's `posted`; none in files of 0.8.0 and earlier). */
  posted: boolean;
  state: { header: unknown; collections: Record<CollectionName, KeyedRecords> };
  /** The project's named snapshots by name, each as its `snap` line and the records of its `sput` lines. */
  snapshots: Map<
    string,
    { savedAt: unknown; clockAt: unknown; header: unknown; collections: Record<CollectionName, unknown[]> }
  >;
}

/** How a record is keyed in its store, and so in the log (see Project.watch): its collection's key field. */
function keyOf(collection: CollectionName): (record: unknown) => string {
  const key = keyFieldOf(collection);
  return (record) => String((record as Record<string, unknown>)[key]);
}

function documentParts(document: unknown): {
  header: unknown;
  collections: Record<CollectionName, unknown[]>;
} {
  const d = document as Record<string, unknown>;
  const collections = {} as Record<CollectionName, unknown[]>;
  for (const c of COLLECTION_NAMES) collections[c] = Array.isArray(d[c]) ? [...(d[c] as unknown[])] : [];
  return { header: d.project, collections };
}

function stateFrom(parts: { header: unknown; collections: Record<CollectionName, unknown[]> }) {
  const collections = {} as Record<CollectionName, KeyedRecords>;
  for (const c of COLLECTION_NAMES) collections[c] = new KeyedRecords(keyOf(c), [...parts.collections[c]]);
  return { header: parts.header, collections };
}

function emptyParts(header: unknown) {
  return documentParts({ project: header });
}

type Line = Record<string, unknown>;

/** Moves a project last in the order, as the registry does with a project it resets or replaces. */
function moveLast(projects: Map<string, Replayed>, id: string, project: Replayed): void {
  projects.delete(id);
  projects.set(id, project);
}

/** Lines about a whole project: it starts over from fixtures (a new project), or goes. */
const PROJECT_LINES = new Map<unknown, (projects: Map<string, Replayed>, id: string, line: Line) => void>([
  [
    "fixtures",
    (projects, id, line) => {
      const fixtures = line.d !== undefined ? documentParts(line.d) : emptyParts(line.h);
      const posted = line.posted === undefined ? false : line.posted;
      // Not the checksum's to vouch for: a mark that is not a boolean is refused, never read as one.
      if (typeof posted !== "boolean") throw new Error("$.posted: should be boolean");
      projects.delete(id);
      projects.set(id, { fixtures, posted, state: stateFrom(fixtures), snapshots: new Map() });
    },
  ],
  ["drop", (projects, id) => projects.delete(id)],
]);

/**
 * A line about a project an earlier line added. `inSnapshot`: read from a snapshot, whose record lines each bring a
 * key of their own and are appended; a log's may write over a record or delete it.
 */
type ProjectLine = (
  project: Replayed,
  line: Line,
  inSnapshot: boolean,
  projects: Map<string, Replayed>,
  id: string,
) => void;

/** Lines about a project's state as a whole: back to its fixtures, a whole document, emptied, its header. */
const STATE_LINES: [string, ProjectLine][] = [
  [
    "reset",
    (project, _line, _inSnapshot, projects, id) => {
      project.state = stateFrom(project.fixtures);
      moveLast(projects, id, project);
    },
  ],
  [
    "state",
    (project, line, _inSnapshot, projects, id) => {
      project.state = stateFrom(documentParts(line.d));
      moveLast(projects, id, project);
    },
  ],
  [
    "clear",
    (project, line) => {
      project.state = stateFrom(emptyParts(line.h));
    },
  ],
  [
    "restore",
    (project, line, _inSnapshot, projects, id) => {
      const snapshot = project.snapshots.get(String(line.n));
      if (!snapshot) throw new Error(`restores snapshot ${String(line.n)}, which no earlier line saves`);
      project.state = stateFrom(snapshot);
      moveLast(projects, id, project);
    },
  ],
  [
    "head",
    (project, line) => {
      project.state.header = line.h;
    },
  ],
];

/** Lines about one record of a collection (`c`): a fixture's, one written, one equal to a fixture's, one deleted. */
const RECORD_LINES: [string, ProjectLine][] = [
  [
    "fput",
    // A snapshot's fixtures are followed by a `clear` of the state, so only the fixtures take the record.
    (project, line) => {
      project.fixtures.collections[line.c as CollectionName].push(line.r);
    },
  ],
  ["put", (project, line, inSnapshot) => putRecord(project, line, line.r, inSnapshot)],
  [
    "same",
    (project, line, inSnapshot) => {
      const c = line.c as CollectionName;
      const record = project.fixtures.collections[c]?.[Number(line.i)];
      if (record === undefined)
        throw new Error(`names fixture record ${String(line.i)} of ${c}, which is not there`);
      putRecord(project, line, record, inSnapshot);
    },
  ],
  [
    "del",
    (project, line) => {
      project.state.collections[line.c as CollectionName].delete(String(line.k));
    },
  ],
];

function putRecord(project: Replayed, line: Line, record: unknown, inSnapshot: boolean): void {
  const collection = project.state.collections[line.c as CollectionName];
  if (inSnapshot) collection.append(record);
  else collection.set(String(line.k), record);
}

/** The records so far of the snapshot a line names (`n`), in its collection (`c`). */
function snapshotCollection(project: Replayed, line: Line): unknown[] {
  const c = line.c as CollectionName;
  const collection = project.snapshots.get(String(line.n))?.collections[c];
  if (!collection) throw new Error(`names snapshot ${String(line.n)}'s ${c}, which no earlier line starts`);
  return collection;
}

/** Lines about a project's named snapshots: one begun, one of its records, one removed. */
const SNAPSHOT_LINES: [string, ProjectLine][] = [
  [
    "snap",
    (project, line) => {
      project.snapshots.set(String(line.n), { savedAt: line.t, clockAt: line.at, ...emptyParts(line.h) });
    },
  ],
  [
    "sput",
    (project, line) => {
      snapshotCollection(project, line).push(line.r);
    },
  ],
  [
    "srun",
    (project, line) => {
      const c = line.c as CollectionName;
      const collection = snapshotCollection(project, line);
      const from = line.f === undefined ? project.fixtures : project.snapshots.get(String(line.f));
      if (!from || line.f === line.n)
        throw new Error(`shares records of snapshot ${String(line.f)}, which is not there`);
      const source = from.collections[c];
      const first = line.i;
      const count = line.m;
      if (!Number.isSafeInteger(first) || !Number.isSafeInteger(count) || (count as number) < 1)
        throw new Error(`names records ${String(first)} (${String(count)} of them) of ${c}`);
      const end = (first as number) + (count as number);
      if ((first as number) < 0 || end > source.length)
        throw new Error(`names records ${String(first)} to ${end - 1} of ${c}, which are not there`);
      for (let i = first as number; i < end; i++) collection.push(source[i]);
    },
  ],
  [
    "unsnap",
    (project, line) => {
      project.snapshots.delete(String(line.n));
    },
  ],
];

const LINES = new Map<unknown, ProjectLine>([...STATE_LINES, ...RECORD_LINES, ...SNAPSHOT_LINES]);

/** Applies one line to the projects being rebuilt; false for a line it does not know. */
function apply(projects: Map<string, Replayed>, line: Line, inSnapshot = false): boolean {
  const id = String(line.p);
  const whole = PROJECT_LINES.get(line.o);
  if (whole) {
    whole(projects, id, line);
    return true;
  }
  const project = projects.get(id);
  if (!project) throw new Error(`names project ${id}, which no earlier line adds`);
  const apply = LINES.get(line.o);
  if (!apply) return false;
  apply(project, line, inSnapshot, projects, id);
  return true;
}

/**
 * Rebuilds every project from a version-2 state: the snapshot, then each log from the snapshot's generation on,
 * in order, one whole batch at a time. A batch the log does not finish (a crash while it was written, so never
 * acknowledged) is left out; anything else that does not read is an error naming the file and the line.
 */
export interface Replay {
  projects: SavedProject[];
  gen: number;
  logBytes: number;
  /**
   * Whether the snapshot's checksum matched: its records are then the server's own, written from validated
   * records, and only those the logs brought (`fromLogs`) need checking one by one.
   */
  checksummed: boolean;
  fromLogs: WeakSet<object>;
}

export function replayState(file: string): Replay {
  const projects = new Map<string, Replayed>();
  const { gen, checksummed } = replaySnapshot(file, projects);
  const fromLogs = new WeakSet<object>();
  let logBytes = 0;
  for (const log of logFilesOf(file).filter((log) => log.gen >= gen))
    logBytes += replayLog(log.path, projects, fromLogs);
  const last = logFilesOf(file).at(-1)?.gen ?? gen;
  return {
    projects: [...projects.values()].map(toSaved),
    gen: Math.max(gen, last),
    logBytes,
    checksummed,
    fromLogs,
  };
}

/**
 * The SHA-256 of the bytes before the snapshot's end line, fed each run of bytes as it is read: `digest()` is
 * undefined until the end line has been seen.
 */
function snapshotHash() {
  const hash = createHash("sha256");
  let hashing = true;
  return {
    update(bytes: Buffer): void {
      if (!hashing) return;
      const end = endLineIn(bytes);
      hash.update(end < 0 ? bytes : bytes.subarray(0, end));
      hashing = end < 0;
    },
    digest: (): string | undefined => (hashing ? undefined : hash.digest("hex")),
  };
}

/**
 * Shares each record's values with those of the last record read of the same project's collection
 * (platform/share-values.ts), so that a million cards alike hold one copy of what they have in common.
 */
function recordSharer(): (line: Line) => void {
  // Keyed by the line's own values, not a string built from them: a million lines, no million keys.
  const previous = new Map<unknown, Map<unknown, Line>>();
  return (line) => {
    const record = line.r;
    if (typeof record !== "object" || record === null || Array.isArray(record)) return;
    let collections = previous.get(line.p);
    if (!collections) {
      collections = new Map();
      previous.set(line.p, collections);
    }
    const before = collections.get(line.c);
    if (before) shareWithPrevious(record as Line, before);
    collections.set(line.c, record as Line);
  };
}

/** Reads the snapshot into `projects`: its generation, and whether a checksum vouched for its records. */
function replaySnapshot(
  file: string,
  projects: Map<string, Replayed>,
): { gen: number; checksummed: boolean } {
  const hash = snapshotHash();
  const share = recordSharer();
  let gen = 0;
  for (const { texts, first } of fileLineRuns(file, hash.update))
    for (let i = 0; i < texts.length; i++) {
      const number = first + i;
      const line = parseLine(texts[i] as string);
      if (number === 1) {
        if (line?.o !== "snapshot" || line.format !== STATE_FILE_FORMAT)
          throw new StateFileError(file, `line ${number}: not the head of a state snapshot`);
        gen = Number(line.gen);
        continue;
      }
      if (line?.o === "end") {
        if (line.sha256 !== undefined && line.sha256 !== hash.digest())
          throw new StateFileError(
            file,
            `line ${number}: the snapshot does not match its checksum (damaged or edited)`,
          );
        return { gen, checksummed: line.sha256 !== undefined };
      }
      if (line) share(line);
      try {
        if (!line || !apply(projects, line, true)) throw new Error("not a line of a state snapshot");
      } catch (error) {
        throw new StateFileError(file, `line ${number}: ${(error as Error).message}`);
      }
    }
  throw new StateFileError(file, "the snapshot is cut short (no end line)");
}

/** Replays one log; returns the bytes it read. */
function replayLog(path: string, projects: Map<string, Replayed>, fromLogs: WeakSet<object>): number {
  let batch: Record<string, unknown>[] = [];
  let broken: number | undefined;
  let bytes = 0;
  for (const { text, number } of fileLines(path)) {
    bytes += text.length + 1;
    const line = parseLine(text);
    if (!line) {
      broken ??= number;
      continue;
    }
    // A line that reads after one that does not: the damage is inside the log, not a torn end.
    if (broken !== undefined) throw new StateFileError(path, `line ${broken}: not valid JSON`);
    if (line.o !== "commit") {
      batch.push(line);
      continue;
    }
    for (const op of batch) markRecords(op, fromLogs);
    for (const op of batch)
      try {
        if (!apply(projects, op)) throw new Error(`unknown line ${JSON.stringify(op.o)}`);
      } catch (error) {
        throw new StateFileError(path, `batch ending on line ${number}: ${(error as Error).message}`);
      }
    batch = [];
  }
  return bytes;
}

/** The records a log line brings, whole documents' included. */
function markRecords(op: Record<string, unknown>, into: WeakSet<object>): void {
  if (typeof op.r === "object" && op.r !== null) into.add(op.r);
  if (typeof op.d !== "object" || op.d === null) return;
  const d = op.d as Record<string, unknown>;
  for (const c of COLLECTION_NAMES)
    if (Array.isArray(d[c])) for (const r of d[c] as unknown[]) if (typeof r === "object" && r) into.add(r);
}

function toSaved(project: Replayed): SavedProject {
  const state: Record<string, unknown> = { project: project.state.header };
  const fixtures: Record<string, unknown> = { project: project.fixtures.header };
  for (const c of COLLECTION_NAMES) {
    state[c] = project.state.collections[c].values();
    fixtures[c] = project.fixtures.collections[c];
  }
  const snapshots = [...project.snapshots].map(([name, { savedAt, clockAt, header, collections }]) => ({
    name,
    savedAt,
    clockAt,
    document: { project: header, ...collections },
  }));
  return { fixtures, state, snapshots, posted: project.posted } as unknown as SavedProject;
}
