import { closeSync, openSync, readSync } from "node:fs";
import { COLLECTIONS, projectDocumentSchema } from "../domain/projects/project-document.js";
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
 * file and the problem when it cannot be used.
 */
export function loadState(file: string): LoadedState | undefined {
  const head = headOf(file);
  if (head === undefined) return undefined;
  if (!head.startsWith('{"o":"snapshot"')) {
    const projects = readStateFile(file);
    return projects && { projects, gen: 0, version: 1, logBytes: 0 };
  }
  const { projects, gen, logBytes } = replayState(file);
  const valid = projects.map(({ fixtures, state }) => {
    const id = (state as { project?: { id?: unknown } }).project?.id;
    const saved = { fixtures: check(file, id, "fixtures", fixtures), state: check(file, id, "state", state) };
    shareUnchanged(fixtures, state, saved);
    return saved;
  });
  return { projects: valid, gen, version: 2, logBytes };
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
  for (const c of COLLECTIONS) {
    const raw = rawFixtures[c] as unknown[];
    const parsed = saved.fixtures[c] as unknown[];
    const parsedOf = new Map(raw.map((record, i) => [record, parsed[i]]));
    (rawState[c] as unknown[]).forEach((record, i) => {
      const shared = parsedOf.get(record);
      if (shared !== undefined) (saved.state[c] as unknown[])[i] = shared;
    });
  }
}

function check(file: string, id: unknown, part: string, document: unknown) {
  const parsed = parseDocument(projectDocumentSchema, document);
  if (!parsed.ok)
    throw new StateFileError(file, `project ${String(id)}, ${part}: ${describeProblem(parsed.problem)}`);
  return parsed.value;
}
