import { closeSync, openSync, readSync } from "node:fs";
import type { z } from "zod";
import { COLLECTIONS } from "../domain/projects/collections.js";
import {
  COLLECTION_NAMES,
  type ProjectDocument,
  projectDocumentSchema,
} from "../domain/projects/project-document.js";
import { checkReferences, type KnownKeys } from "../domain/projects/references.js";
import { describeProblem, parseDocument } from "../platform/documents.js";
import { replayState } from "./replay.js";
import { readStateFile, type SavedProject, StateFileError } from "./state-file.js";

export interface LoadedState {
  projects: SavedProject[];
  /** The newest generation on disk; 0 for a version-1 file, which the server rewrites as a snapshot at once. */
  gen: number;
  version: 1 | 2;
  /** How much log the restart replayed: a new snapshot in the background makes the next restart cheaper. */
  logBytes: number;
}

/** The first bytes of the file, or undefined when there is none; other read errors name their code. */
function headOf(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new StateFileError(file, `cannot be read (${code ?? String(error)})`);
  }
  try {
    const buffer = Buffer.alloc(64);
    return buffer.subarray(0, readSync(fd, buffer, 0, 64, 0)).toString("utf8");
  } catch (error) {
    throw new StateFileError(
      file,
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  } finally {
    closeSync(fd);
  }
}

/**
 * The saved projects of a state file, validated like fixtures: a version-2 snapshot with its logs, or a version-1
 * file (one JSON document, as 0.4.0 and earlier wrote). Undefined when there is none; a StateFileError naming the
 * file and the problem when it cannot be used. The references across a snapshot's state records are left to
 * `checkState`, which restoreProjects calls before the project is installed.
 */
export function loadState(file: string): LoadedState | undefined {
  const head = headOf(file);
  if (head === undefined) return undefined;
  if (!head.startsWith('{"o":"snapshot"')) {
    const projects = readStateFile(file);
    return projects && { projects, gen: 0, version: 1, logBytes: 0 };
  }
  const replay = replayState(file);
  const valid = replay.projects.map(({ fixtures, state, snapshots = [], posted }): SavedProject => {
    const id = (state as { project?: { id?: unknown } }).project?.id;
    // A record a log brought once and several snapshots share (srun lines) is checked once and stays one object.
    const checkedOnce = new Map<object, unknown>();
    // A named snapshot is a whole document: its records and its references are checked as a state's are.
    const named = snapshots.map((snapshot) => {
      const part = `snapshot ${snapshot.name}`;
      if (!replay.checksummed) return { ...snapshot, document: check(file, id, part, snapshot.document) };
      const checked = checkRecords(file, id, part, snapshot.document, replay.fromLogs, checkedOnce);
      checked.checkReferences();
      return { ...snapshot, document: checked.document };
    });
    if (replay.checksummed) {
      const checked = checkRecords(file, id, "state", state, replay.fromLogs, checkedOnce);
      return {
        fixtures: checkRecords(file, id, "fixtures", fixtures, replay.fromLogs, checkedOnce).document,
        state: checked.document,
        checkState: checked.checkReferences,
        snapshots: named,
        posted,
      };
    }
    const saved = { fixtures: check(file, id, "fixtures", fixtures), state: check(file, id, "state", state) };
    shareUnchanged(fixtures, state, saved);
    return { ...saved, snapshots: named, posted };
  });
  return { projects: valid, gen: replay.gen, version: 2, logBytes: replay.logBytes };
}

/**
 * A state record the snapshot wrote as "the fixture's record" is one object with it again after validation, as
 * it was before the restart: a million unchanged cards are kept once, not twice, and the next snapshot sees them
 * unchanged.
 */
function shareUnchanged(
  rawFixtures: SavedProject["fixtures"],
  rawState: SavedProject["state"],
  saved: SavedProject,
) {
  for (const c of COLLECTION_NAMES) {
    const raw = rawFixtures[c] as unknown[];
    const parsed = saved.fixtures[c] as unknown[];
    const parsedOf = new Map(raw.map((record, i) => [record, parsed[i]]));
    (rawState[c] as unknown[]).forEach((record, i) => {
      const shared = parsedOf.get(record);
      if (shared !== undefined) (saved.state[c] as unknown[])[i] = shared;
    });
  }
}

const SHAPE = (projectDocumentSchema as unknown as { shape: Record<string, z.ZodType> }).shape;
/** One record's schema per collection, as its descriptor declares it. */
const RECORD_SCHEMA = new Map<string, z.ZodType>(COLLECTIONS.map((c) => [c.name, c.schema]));

/**
 * Checks a project document whose snapshot records are known good (the checksum matched: the server wrote them
 * from validated records), so only what the logs brought is validated record by record, plus the references
 * across records, as the document schema does: a million-card restart then costs the changes, not a million
 * validations. Problems are reported as the whole-document check reports them.
 *
 * The references of a state are checked by `checkReferences`, which the restore calls with the stores of the
 * project it built (their ids and indexes are the sets the check needs; see restoreProjects); a fixtures
 * document the logs brought is checked at once.
 */
function checkRecords(
  file: string,
  id: unknown,
  part: string,
  raw: unknown,
  fromLogs: WeakSet<object>,
  checkedOnce: Map<object, unknown>,
): { document: ProjectDocument; checkReferences: (known?: KnownKeys) => void } {
  const fail = (path: readonly PropertyKey[], problem: string) =>
    new StateFileError(
      file,
      `project ${String(id)}, ${part}: ${describeProblem({ path: path as (string | number)[], problem })}`,
    );
  const document = raw as Record<string, unknown>;
  const header = parseDocument(SHAPE.project as z.ZodType, document.project);
  if (!header.ok) throw fail(["project", ...header.problem.path], header.problem.problem);
  const checked: Record<string, unknown> = { project: header.value };
  let logged = false;
  for (const c of COLLECTION_NAMES)
    checked[c] = (document[c] as unknown[]).map((record, i) => {
      // A snapshot's records are objects; anything else a log brought, which no WeakSet can hold, is checked too.
      if (typeof record === "object" && record !== null && !fromLogs.has(record)) return record;
      logged = true;
      const seen = typeof record === "object" && record !== null ? checkedOnce.get(record) : undefined;
      if (seen !== undefined) return seen;
      const parsed = parseDocument(RECORD_SCHEMA.get(c) as z.ZodType, record);
      if (!parsed.ok) throw fail([c, i, ...parsed.problem.path], parsed.problem.problem);
      if (typeof record === "object" && record !== null) checkedOnce.set(record, parsed.value);
      return parsed.value;
    });
  const references = (known?: KnownKeys) => {
    const issues: { path: PropertyKey[]; message: string }[] = [];
    checkReferences(checked as never, { addIssue: (issue: never) => issues.push(issue) } as never, known);
    const issue = issues[0];
    if (issue) throw fail(issue.path, issue.message);
  };
  const result = { document: checked as ProjectDocument, checkReferences: references };
  // Fixtures the snapshot alone holds were checked whole when the project was added. A state is checked again:
  // it is the snapshot and the logs together, and this is the guard that they fit.
  if (part === "fixtures" && logged) references();
  return result;
}

function check(file: string, id: unknown, part: string, document: unknown) {
  const parsed = parseDocument(projectDocumentSchema, document);
  if (!parsed.ok)
    throw new StateFileError(file, `project ${String(id)}, ${part}: ${describeProblem(parsed.problem)}`);
  return parsed.value;
}
