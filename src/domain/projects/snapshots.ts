import { deepFreeze } from "../../platform/deep-freeze.js";
import { makeRoom, overBudget } from "../../platform/memory-budget.js";
import { CAP_VARIABLES } from "../caps.js";
import { conflict, limitExceeded, memoryBudgetExceeded, notFound } from "../errors.js";
import type { Project } from "./project.js";
import { COLLECTION_NAMES, type ProjectDocument } from "./project-document.js";
import { sharedState } from "./state-export.js";
import { storeCounts } from "./stores.js";

/** A snapshot's name: a path segment anyone can type (`start`, `after-signup`, `v2.1`). */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/**
 * A project's state saved under a name (`POST /__mock/projects/{id}/snapshots`), to be put back exactly, clock
 * included: a demo's starting point, restored in one call as often as it is shown.
 */
export interface Snapshot {
  readonly name: string;
  /** When it was saved, by the server's clock (ms since the epoch). */
  readonly savedAt: number;
  /** The moment the project's clock showed then (ms since the epoch): a restore puts it back there. */
  readonly clockAt: number;
  /**
   * The project's whole state then, frozen: its records are the project's own objects (shared, never copied, as
   * records are never changed in place), and a restore builds the project from it without copying them.
   */
  readonly document: ProjectDocument;
}

/**
 * What a snapshot adds to the heap per record it holds: one slot of its arrays (8 bytes), with room for V8's
 * headers. The records themselves are the project's: they cost only once the project replaces them.
 */
const SAVE_BYTES_PER_RECORD = 16;
/**
 * What a restore adds per record while the new project is built beside the one it replaces: its stores' maps and
 * indexes (147 MiB measured for a million cards; docs/performance.md).
 */
const RESTORE_BYTES_PER_RECORD = 200;

/** How many records a project holds, across its collections. */
function recordCount(project: Project): number {
  let count = 0;
  for (const size of Object.values(storeCounts(project.stores))) count += size;
  return count;
}

function documentRecords(document: ProjectDocument): number {
  let count = 0;
  for (const name of COLLECTION_NAMES) count += document[name].length;
  return count;
}

/** What a save of `project` adds to the heap, and what a restore of `snapshot` adds while it is built. */
const saveBytes = (project: Project) => recordCount(project) * SAVE_BYTES_PER_RECORD;
const restoreBytes = (snapshot: Snapshot) => documentRecords(snapshot.document) * RESTORE_BYTES_PER_RECORD;

/** Has V8 collect beside the running code when a save of `project` would find the heap over budget (makeRoom). */
export function makeRoomToSave(project: Project, budgetMb: number): Promise<void> {
  return makeRoom(saveBytes(project), budgetMb);
}

/** The same before a restore of `snapshot`, beside the restores still being built (`building`, as admitRestore). */
export function makeRoomToRestore(snapshot: Snapshot, budgetMb: number, building = 0): Promise<void> {
  return makeRoom(restoreBytes(snapshot) + building, budgetMb);
}

/**
 * Refuses a restore of `snapshot` past the server's memory budget (MiB) with 409 limit_exceeded, before anything
 * is built: the project it builds stands beside the one it replaces until that one is collected. `building`: what
 * the restores still being built (a slice at a time, beside this one) were admitted for and have yet to spend.
 * Answers the bytes this one is admitted for.
 */
export function admitRestore(projectId: string, snapshot: Snapshot, budgetMb: number, building = 0): number {
  const bytes = restoreBytes(snapshot);
  const over = overBudget(bytes + building, budgetMb);
  if (over)
    throw memoryBudgetExceeded(
      `Restoring snapshot ${snapshot.name} of project ${projectId}`,
      over,
      CAP_VARIABLES.snapshotMemoryMb,
    );
  return bytes;
}

/** Told when a snapshot is saved or deleted: the state file logs both (src/persistence/change-log.ts). */
export interface SnapshotWatcher {
  snapshotSaved(projectId: string, snapshot: Snapshot): void;
  snapshotDeleted(projectId: string, name: string): void;
}

/**
 * Every project's named snapshots. They belong to the project's id, not to the Project object: a reset, a state
 * import or a restore builds a new Project and the snapshots stay; removing the project removes them.
 */
export class SnapshotShelf {
  readonly #byProject = new Map<string, Map<string, Snapshot>>();
  readonly #watcher: () => SnapshotWatcher | undefined;

  constructor(watcher: () => SnapshotWatcher | undefined) {
    this.#watcher = watcher;
  }

  /** The project's snapshots, oldest first. */
  list(projectId: string): Snapshot[] {
    return [...(this.#byProject.get(projectId)?.values() ?? [])];
  }

  /** One snapshot; 404 not_found naming it when the project has none of that name. */
  get(projectId: string, name: string): Snapshot {
    const snapshot = this.#byProject.get(projectId)?.get(name);
    if (!snapshot) throw notFound("snapshot", name);
    return snapshot;
  }

  /**
   * Saves the project's state under `name`. A name in use is 409 `conflict` unless `replace` (the snapshot then
   * takes the old one's place in the list); a new name past `limit` is 409 `limit_exceeded`, and so is a save the
   * memory budget (`budgetMb`) does not admit. Checked first, so a refusal changes nothing.
   */
  save(
    project: Project,
    name: string,
    options: { replace: boolean; limit: number; now: number; budgetMb: number },
  ): Snapshot {
    const shelf = this.#byProject.get(project.id) ?? new Map<string, Snapshot>();
    if (shelf.has(name) && !options.replace)
      throw conflict(
        `Project ${project.id} has a snapshot named ${name} already; send "replace": true to save over it`,
      );
    if (!shelf.has(name) && shelf.size >= options.limit)
      throw limitExceeded(
        `Project ${project.id}`,
        "snapshots",
        options.limit,
        CAP_VARIABLES.snapshotsPerProject,
      );
    const over = overBudget(saveBytes(project), options.budgetMb);
    if (over)
      throw memoryBudgetExceeded(
        `Saving snapshot ${name} of project ${project.id}`,
        over,
        CAP_VARIABLES.snapshotMemoryMb,
      );
    const snapshot = makeSnapshot(name, options.now, project.clock.now(), sharedState(project));
    shelf.set(name, snapshot);
    this.#byProject.set(project.id, shelf);
    this.#watcher()?.snapshotSaved(project.id, snapshot);
    return snapshot;
  }

  /** Whether the project's snapshot of that name is this one still (not deleted, not saved over). */
  holds(projectId: string, snapshot: Snapshot): boolean {
    return this.#byProject.get(projectId)?.get(snapshot.name) === snapshot;
  }

  /** Removes one snapshot; 404 when there is none of that name. */
  delete(projectId: string, name: string): void {
    this.get(projectId, name);
    this.#byProject.get(projectId)?.delete(name);
    this.#watcher()?.snapshotDeleted(projectId, name);
  }

  /** Puts back a snapshot a state file held (no watcher is told: the file has it already). */
  put(projectId: string, snapshot: Snapshot): void {
    const shelf = this.#byProject.get(projectId) ?? new Map<string, Snapshot>();
    shelf.set(snapshot.name, snapshot);
    this.#byProject.set(projectId, shelf);
  }

  /** Every snapshot of a project that is gone. */
  drop(projectId: string): void {
    this.#byProject.delete(projectId);
  }
}

/** A snapshot, its document frozen (the project built from it shares its records, as it shares its fixtures'). */
export function makeSnapshot(
  name: string,
  savedAt: number,
  clockAt: number,
  document: ProjectDocument,
): Snapshot {
  return Object.freeze({ name, savedAt, clockAt, document: deepFreeze(document) });
}

/**
 * The document a restore installs: the snapshot's state with the clock showing the moment it showed at the save.
 * A clock that stood still stands still there again; a running one runs on from there (its offset from the
 * server's clock is made anew, since the server's clock moved on meanwhile).
 */
export function documentToRestore(snapshot: Snapshot, serverNow: number): ProjectDocument {
  const { project } = snapshot.document;
  const clock =
    project.clock.frozen_at === undefined
      ? { offset_ms: snapshot.clockAt - serverNow }
      : { offset_ms: project.clock.offset_ms, frozen_at: project.clock.frozen_at };
  return { ...snapshot.document, project: { ...project, clock } };
}
