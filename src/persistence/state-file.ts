import { readFileSync } from "node:fs";
import { z } from "zod";
import type { ApiError } from "../domain/errors.js";
import {
  EXACT_COLLECTIONS,
  type ProjectDocument,
  projectDocumentSchema,
} from "../domain/projects/project-document.js";
import type { KnownKeys } from "../domain/projects/references.js";
import type { ProjectRegistry } from "../domain/projects/registry.js";
import { makeSnapshot, type Snapshot } from "../domain/projects/snapshots.js";
import { exportProject } from "../domain/projects/state-export.js";
import { type Clock, clockRangeProblem } from "../platform/clock.js";
import { describeProblem, parseDocument, parseJsonText } from "../platform/documents.js";
import { exactUnderKeys, parseExact, stringifyExact, withDoubles } from "../platform/exact-json.js";
import { olderIncentives } from "./older-integers.js";

/**
 * The version-1 state file (0.4.0 and earlier): every project of the server, each as its fixtures (what a reset
 * goes back to) and its current state, both project documents in the fixture format, and `posted: true` when its
 * fixtures were posted (SavedProject.posted), in one JSON document. The
 * server now writes version 2 (a snapshot and a change log: state-store.ts, replay.ts) and reads this one only to
 * convert it at start; `serializeState` stays as the writer of the old format for the tests of that conversion.
 */
export const STATE_FILE_FORMAT = "loyalty-mock-state";
const STATE_FILE_VERSION = 1;

const stateFileSchema = z.strictObject({
  format: z.literal(STATE_FILE_FORMAT),
  version: z.literal(STATE_FILE_VERSION),
  saved_at: z.iso.datetime(),
  projects: z.array(
    z.strictObject({
      fixtures: projectDocumentSchema,
      state: projectDocumentSchema,
      posted: z.boolean().optional(),
    }),
  ),
});

/** A named snapshot as a state file holds it: its times as written (ISO 8601), checked when restored. */
interface SavedSnapshot {
  name: string;
  savedAt: unknown;
  clockAt: unknown;
  document: ProjectDocument;
}

export interface SavedProject {
  fixtures: ProjectDocument;
  state: ProjectDocument;
  /** Its named snapshots (a version-2 file; the older format had none). */
  snapshots?: SavedSnapshot[];
  /**
   * Whether its fixtures were posted (ProjectRegistry.fixturesPosted): written only when true, so a file of
   * projects from fixtures keeps its bytes and one written by 0.8.0 or earlier reads as not posted.
   */
  posted?: boolean | undefined;
  /**
   * The state's references across records, still to check (a restart from a snapshot: see load-state.ts); given
   * the keys the built project's stores hold, or none to build its own sets. Throws a StateFileError.
   */
  checkState?: (known?: KnownKeys) => void;
}

/** A state file the server cannot start from; the message names the file and what is wrong where. */
export class StateFileError extends Error {
  override name = "StateFileError";
  readonly file: string;

  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.file = file;
  }
}

// Fixtures change only when a project is added, so each is written to text once and reused by every save.
const fixturesText = new WeakMap<object, string>();

/** The whole registry as the text of a state file, taken in one synchronous step (a consistent snapshot). */
export function serializeState(registry: ProjectRegistry, clock: Clock = registry.clock): string {
  const projects = registry.list().map((project) => {
    const fixtures = registry.fixturesOf(project.id);
    let text = fixturesText.get(fixtures);
    if (text === undefined) {
      text = stringifyExact(fixtures);
      fixturesText.set(fixtures, text);
    }
    const posted = registry.fixturesPosted(project.id) ? ',"posted":true' : "";
    return `{"fixtures":${text},"state":${stringifyExact(exportProject(project))}${posted}}`;
  });
  const head = JSON.stringify({
    format: STATE_FILE_FORMAT,
    version: STATE_FILE_VERSION,
    saved_at: new Date(clock.now()).toISOString(),
  });
  return `${head.slice(0, -1)},"projects":[${projects.join(",")}]}\n`;
}

/**
 * Reads a state file: undefined when there is none yet; a StateFileError when it cannot be read, is not JSON or
 * does not validate. A bad file is never skipped or overwritten: starting over is the operator's decision.
 */
export function readStateFile(file: string): SavedProject[] | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new StateFileError(file, `cannot be read (${code ?? String(error)})`);
  }
  const json = parseJsonText(text, (json) => parseExact(json, exactInProjects));
  if (!json.ok) throw new StateFileError(file, describeProblem(json.problem));
  if ((json.value as { format?: unknown } | null)?.format !== STATE_FILE_FORMAT)
    throw new StateFileError(
      file,
      `$.format: should be ${STATE_FILE_FORMAT}; this is not a state file of the server`,
    );
  const parsed = parseDocument(stateFileSchema, json.value);
  if (!parsed.ok) throw new StateFileError(file, describeProblem(parsed.problem));
  return parsed.value.projects;
}

/**
 * A version-1 file keeps integers past 2^53 exactly where a version-2 file does, in the tier structures and
 * incentives of each saved document, so that a restart shows the digits the earlier server answered with (its
 * doubles' shortest spelling, such as 1152921504606847000); elsewhere they are the doubles JSON.parse gives. An
 * incentive's 2^63 is the int64 maximum those versions meant by it (older-integers.ts).
 */
function exactInProjects(file: unknown): unknown {
  const projects = (file as { projects?: unknown } | null)?.projects;
  if (!Array.isArray(projects)) return withDoubles(file);
  for (const saved of projects as unknown[]) {
    const parts = (typeof saved === "object" && saved !== null ? saved : {}) as Record<string, unknown>;
    for (const part of Object.keys(parts)) {
      exactUnderKeys(parts[part], EXACT_COLLECTIONS);
      olderIncentives((parts[part] as { incentives?: unknown } | null)?.incentives);
    }
  }
  // Whatever else holds a bigint (a saved project that is not an object, the version) is refused by the schema.
  return file;
}

/** A saved snapshot as the registry keeps it; its times must be instants. */
function snapshotOf(saved: SavedSnapshot, file: string, where: string): Snapshot {
  const savedAt = typeof saved.savedAt === "string" ? Date.parse(saved.savedAt) : Number.NaN;
  const clockAt = typeof saved.clockAt === "string" ? Date.parse(saved.clockAt) : Number.NaN;
  if (Number.isNaN(savedAt) || Number.isNaN(clockAt) || clockRangeProblem(clockAt) !== undefined)
    throw new StateFileError(
      file,
      `${where}, snapshot ${saved.name}: its times are not instants a clock shows`,
    );
  return makeSnapshot(saved.name, savedAt, clockAt, saved.document);
}

/** Builds every saved project in the registry, each from its fixtures and then its saved state. */
export function restoreProjects(registry: ProjectRegistry, saved: SavedProject[], file: string): void {
  saved.forEach(({ fixtures, state, checkState, snapshots = [], posted }, index) => {
    const where = `$.projects[${index}]`;
    if (state.project.id !== fixtures.project.id)
      throw new StateFileError(file, `${where}.state.project.id: should be ${fixtures.project.id}`);
    const named = snapshots.map((saved) => snapshotOf(saved, file, `project ${state.project.id}`));
    try {
      // The check looks values up in the stores just built rather than building its own sets of them.
      registry.restore(fixtures, state, {
        verify: checkState && ((project) => checkState(project.knownKeys.bind(project))),
        snapshots: named,
        posted: posted === true,
      });
    } catch (error) {
      if (error instanceof StateFileError) throw error;
      // A state whose references are broken may not even build: the broken reference is what to report.
      checkState?.();
      const details = (error as ApiError).details ?? (error as Error).message;
      throw new StateFileError(file, `${where}: ${details}`);
    }
  });
}
