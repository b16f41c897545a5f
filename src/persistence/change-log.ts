import type { Project } from "../domain/projects/project.js";
import {
  COLLECTION_NAMES,
  type CollectionName,
  type ProjectDocument,
} from "../domain/projects/project-document.js";
import type { InstallKind, ProjectRegistry, RegistryWatcher } from "../domain/projects/registry.js";
import type { Snapshot } from "../domain/projects/snapshots.js";
import { collectionView, projectHeader, projectState } from "../domain/projects/state-export.js";
import { keyFieldOf } from "../domain/projects/stores.js";
import { stringifyExact } from "../platform/exact-json.js";
import { LogBatch, type Piece } from "./log-batch.js";
import { snapshotLines } from "./snapshot-lines.js";

/**
 * The lines of the state file's log and snapshots (docs/reference/persistence.md), one JSON object each, `o` saying what
 * it does to the project `p`:
 * - `fixtures` {d}: the project's fixtures become `d`, and so does its state (a project added, as 0.11.0 wrote it);
 *   {h}: both become an empty document with that `project` header, the fixtures filled by the `fput` lines that
 *   follow (a project added: then a `reset`; a snapshot: then a `clear` and the state's lines);
 *   either with `posted: true` when the fixtures were posted (ProjectRegistry.fixturesPosted), else without it;
 * - `reset`: the state goes back to the fixtures; `state` {d}: the state becomes `d` (an import: written as
 *   `d`'s header alone, followed by a `put` line per record, so that no line holds a whole project);
 *   `restore` {n}: the state becomes the named snapshot `n` (its clock is the `head` line that follows);
 * - `clear` {h}: the state becomes an empty document with that header, filled by the `put` lines that follow;
 * - `head` {h}: the state's `project` header (settings, clock) becomes `h`;
 * - `put` {c, k, r} / `del` {c, k}: one record of collection `c`, under key `k`, is written or removed;
 *   `fput` {c, r}: a record appended to the fixtures; `same` {c, k, i}: the state holds the fixtures' record `i`
 *   unchanged (both in snapshots only);
 * - `snap` {n, t, at, h}: the project's named snapshot `n` (saved at `t`, its clock then at `at`) becomes an empty
 *   document with that header, filled by the `sput` {n, c, r} lines that follow, and `srun` {n, c, i, m}: the
 *   fixtures' own records i to i+m-1 (snapshot-lines.ts); `unsnap` {n}: it is deleted;
 * - `drop`: the project is gone; `commit`: the lines since the previous commit form one whole batch.
 */
const COMMIT_LINE = '{"o":"commit"}\n';

interface Pending {
  /** The project whose records are pending; undefined once its id names no installed project. */
  project: Project | undefined;
  /** Install and drop lines, in order, each taken when it happened; the records below come after them. */
  events: Piece[];
  /** `collection \0 key` -> whether the record was deleted since the last batch (then a put must follow a del). */
  records: Map<string, boolean>;
}

function line(value: object): string {
  return `${stringifyExact(value)}\n`;
}

/**
 * Learns from the registry what each write changed (which records, which projects) and turns it, on `take()`,
 * into one batch of log lines: the records' values as they are at that moment, so a batch is a consistent
 * state and its cost is the records written, never the size of the state.
 */
export class ChangeLog implements RegistryWatcher {
  readonly #registry: ProjectRegistry;
  #pending = new Map<string, Pending>();
  /** The header each project's state last had in a batch: settings and clock changes are found by comparing. */
  #headers = new WeakMap<Project, { settings: unknown; offsetMs: number; frozenAt: number | undefined }>();

  constructor(registry: ProjectRegistry) {
    this.#registry = registry;
    registry.watch(this);
  }

  stop(): void {
    this.#registry.watch(undefined);
  }

  installed(project: Project, kind: InstallKind, snapshot?: string): void {
    this.#fresh(project).events.push(this.#installLines(project, kind, snapshot));
  }

  #installLines(project: Project, kind: InstallKind, snapshot: string | undefined): Piece {
    const id = project.id;
    if (kind === "reset") return line({ o: "reset", p: id });
    if (kind === "added") {
      // Its fixtures never change: their lines are made as they are written, a record a line (a million cards
      // as one line took seconds to make and could pass what one string may hold).
      const fixtures = this.#registry.fixturesOf(id);
      const mark = postedMark(this.#registry, id);
      return () => addedLines(fixtures, mark);
    }
    if (snapshot !== undefined) return line({ o: "restore", p: id, n: snapshot });
    // The records as installed, taken now (a later change is a record line of its own), written when saved.
    const state = projectState(project);
    return () => stateLines(state);
  }

  removed(id: string): void {
    const pending = this.#pending.get(id);
    const entry: Pending = pending ?? { project: undefined, events: [], records: new Map() };
    entry.project = undefined;
    entry.records.clear();
    entry.events.push(line({ o: "drop", p: id }));
    this.#pending.set(id, entry);
  }

  record(project: Project, collection: CollectionName, key: string, deleted: boolean): void {
    const records = this.#entry(project).records;
    const slot = `${collection}\0${key}`;
    if (deleted) {
      records.delete(slot);
      records.set(slot, true);
    } else if (!records.has(slot)) records.set(slot, false);
  }

  snapshotSaved(projectId: string, snapshot: Snapshot): void {
    // The snapshot's records never change, and neither do these fixtures: its lines are made as they are written.
    const fixtures = this.#registry.fixturesOf(projectId);
    const others = this.#registry.snapshots.list(projectId).filter((other) => other.name !== snapshot.name);
    const base = latestOf(others);
    this.#entry(this.#registry.get(projectId)).events.push(() =>
      snapshotLines(projectId, snapshot, fixtures, base),
    );
  }

  snapshotDeleted(projectId: string, name: string): void {
    this.#entry(this.#registry.get(projectId)).events.push(line({ o: "unsnap", p: projectId, n: name }));
  }

  /** The pending entry of an installed project, made when it has none. */
  #entry(project: Project): Pending {
    let pending = this.#pending.get(project.id);
    if (!pending) {
      pending = { project, events: [], records: new Map() };
      this.#pending.set(project.id, pending);
    }
    return pending;
  }

  /** Whether a batch would hold anything besides header changes. */
  get pending(): boolean {
    return this.#pending.size > 0;
  }

  /** Every change since the last batch, as log lines ending with a commit line; empty when nothing changed. */
  take(): LogBatch {
    const parts: Piece[] = [];
    for (const pending of this.#pending.values()) {
      for (const event of pending.events) parts.push(event);
      if (pending.project && this.#installed(pending.project))
        parts.push(recordLines(pending.project, pending.records));
    }
    this.#pending = new Map();
    for (const project of this.#registry.list()) {
      const seen = this.#headers.get(project);
      const { offsetMs, frozenAt } = project.clock;
      if (seen?.settings === project.settings && seen.offsetMs === offsetMs && seen.frozenAt === frozenAt)
        continue;
      this.#headers.set(project, { settings: project.settings, offsetMs, frozenAt });
      parts.push(line({ o: "head", p: project.id, h: projectHeader(project) }));
    }
    if (parts.length === 0) return new LogBatch();
    parts.push(COMMIT_LINE);
    return new LogBatch(parts);
  }

  /** The pending entry of a project just installed: whatever was pending for its id is superseded. */
  #fresh(project: Project): Pending {
    const previous = this.#pending.get(project.id);
    const pending: Pending = { project, events: previous?.events ?? [], records: new Map() };
    // Re-inserted, so the project's lines keep the order of its latest event relative to other projects'.
    this.#pending.delete(project.id);
    this.#pending.set(project.id, pending);
    return pending;
  }

  #installed(project: Project): boolean {
    try {
      return this.#registry.get(project.id) === project;
    } catch {
      return false;
    }
  }
}

/** A `fixtures` line's mark of posted fixtures: written only when true, so other projects' lines keep their bytes. */
function postedMark(registry: ProjectRegistry, id: string): { posted?: true } {
  return registry.fixturesPosted(id) ? { posted: true } : {};
}

function recordLines(project: Project, records: Map<string, boolean>): string {
  const p = JSON.stringify(project.id);
  const out: string[] = [];
  for (const [slot, deleted] of records) {
    const cut = slot.indexOf("\0");
    const c = slot.slice(0, cut) as CollectionName;
    const k = JSON.stringify(slot.slice(cut + 1));
    const record = collectionView(project, c).get(slot.slice(cut + 1));
    if (deleted || record === undefined) out.push(`{"o":"del","p":${p},"c":"${c}","k":${k}}\n`);
    if (record !== undefined)
      out.push(`{"o":"put","p":${p},"c":"${c}","k":${k},"r":${stringifyExact(record)}}\n`);
  }
  return out.join("");
}

/** The snapshot saved last of these: the one likeliest to share a new snapshot's records. */
function latestOf(snapshots: readonly Snapshot[]): Snapshot | undefined {
  let latest: Snapshot | undefined;
  for (const snapshot of snapshots) if (!latest || snapshot.savedAt >= latest.savedAt) latest = snapshot;
  return latest;
}

/**
 * A project added, as log lines: a `fixtures` line with its header alone, an `fput` line per record, and a `reset`
 * that makes its state those fixtures.
 */
function* addedLines(fixtures: Readonly<ProjectDocument>, mark: { posted?: true }): Generator<string> {
  const id = fixtures.project.id;
  const p = JSON.stringify(id);
  yield line({ o: "fixtures", p: id, h: fixtures.project, ...mark });
  for (const c of COLLECTION_NAMES)
    for (const record of fixtures[c])
      yield `{"o":"fput","p":${p},"c":"${c}","r":${stringifyExact(record)}}\n`;
  yield line({ o: "reset", p: id });
}

/** A whole state as log lines: a `state` line with its header alone, then a `put` line per record, in order. */
function* stateLines(state: ProjectDocument): Generator<string> {
  const p = JSON.stringify(state.project.id);
  yield line({ o: "state", p: state.project.id, d: { project: state.project } });
  for (const c of COLLECTION_NAMES) {
    const keyOf = keyFieldOf(c);
    for (const record of state[c] as readonly Record<string, unknown>[])
      yield `{"o":"put","p":${p},"c":"${c}","k":${JSON.stringify(String(record[keyOf]))},"r":${stringifyExact(record)}}\n`;
  }
}

/**
 * A snapshot of the registry as log lines, in slices of about `sliceBytes`, each taken in one synchronous step:
 * the caller writes a slice and lets the event loop run before asking for the next, so a million records never
 * block it. Records change while it runs; the log written since the snapshot began corrects them on replay.
 */
export function* snapshotSlices(registry: ProjectRegistry, sliceBytes = 64 * 1024): Generator<string> {
  let slice: string[] = [];
  let size = 0;
  const push = (text: string) => {
    slice.push(text);
    size += text.length;
  };
  const full = () => size >= sliceBytes;
  const cut = () => {
    const text = slice.join("");
    slice = [];
    size = 0;
    return text;
  };
  for (const project of registry.list()) {
    const id = JSON.stringify(project.id);
    const fixtures = registry.fixturesOf(project.id);
    push(line({ o: "fixtures", p: project.id, h: fixtures.project, ...postedMark(registry, project.id) }));
    for (const c of COLLECTION_NAMES)
      for (const record of fixtures[c]) {
        push(`{"o":"fput","p":${id},"c":"${c}","r":${stringifyExact(record)}}\n`);
        if (full()) yield cut();
      }
    push(line({ o: "clear", p: project.id, h: projectHeader(project) }));
    for (const c of COLLECTION_NAMES) {
      // A record never changed is the fixture's own object (stores keep fixture order): written as its index,
      // and read back as that same object. Found by walking the fixtures alongside, so no index of a million.
      const seeded = fixtures[c] as readonly { id?: string }[];
      let at = 0;
      for (const [key, record] of collectionView(project, c).entries()) {
        const k = JSON.stringify(key);
        const i = seeded[at]?.id === key ? at++ : undefined;
        push(
          i !== undefined && seeded[i] === record
            ? `{"o":"same","p":${id},"c":"${c}","k":${k},"i":${i}}\n`
            : `{"o":"put","p":${id},"c":"${c}","k":${k},"r":${stringifyExact(record)}}\n`,
        );
        if (full()) yield cut();
      }
    }
    const written: Snapshot[] = [];
    for (const snapshot of registry.snapshots.list(project.id)) {
      for (const text of snapshotLines(project.id, snapshot, fixtures, latestOf(written))) {
        push(text);
        if (full()) yield cut();
      }
      written.push(snapshot);
    }
  }
  if (size > 0) yield cut();
}
