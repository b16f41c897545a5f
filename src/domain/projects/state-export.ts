import { deepFreeze, freezeInSlices } from "../../platform/deep-freeze.js";
import type { Project } from "./project.js";
import type { CollectionName, ProjectDocument } from "./project-document.js";
import { COLLECTION_NAMES } from "./project-document.js";
import { type CollectionView, storeView } from "./stores.js";

/**
 * A project's whole state as a project document, in the fixture format: what `new Project(document)` would
 * build again. Records are written as they are stored: a card the API wrote is whole, a fixture card still leaves
 * out what follows from the rest (as fixtures may). Records keep their order (the members endpoint hands out cards
 * in that order). The result shares nothing with the project.
 */
export function exportProject(project: Project): ProjectDocument {
  return structuredClone(projectState(project));
}

/**
 * The same document as `exportProject`, sharing the project's records instead of copying them: a view to read at
 * once, never to keep or change. It lets a test compare states without copying every record: a record the project
 * still shares with its frozen fixtures is the same object, unchanged.
 */
export function projectState(project: Project): ProjectDocument {
  const collections = Object.fromEntries(
    COLLECTION_NAMES.map((name) => [name, recordsOf(project, name)]),
  ) as { [K in CollectionName]: ProjectDocument[K] };
  return { project: projectHeader(project), ...collections };
}

/**
 * The same document as `projectState`, to keep: a snapshot's. It shares the project's records, which are never
 * changed in place (a write stores a new object), so it costs one reference per record, not a copy of each: at a
 * million cards about 8 MB and under 15 ms instead of the project's size and seconds. Its arrays and header are
 * frozen at once; the records the API wrote since the project was built are frozen in slices after it
 * (freezeInSlices: a scan of a million records for them would take as long again as the copy), as a safety net
 * against code that would change a record in place.
 */
export function sharedState(project: Project): ProjectDocument {
  const collections = Object.fromEntries(
    COLLECTION_NAMES.map((name) => [name, Object.freeze(recordsOf(project, name))]),
  ) as { [K in CollectionName]: ProjectDocument[K] };
  const document = Object.freeze({ project: deepFreeze(projectHeader(project)), ...collections });
  freezeInSlices(COLLECTION_NAMES.map((name) => document[name] as readonly unknown[]));
  return document;
}

/** A collection's records in order, as an array: the store's own values where its view has them (no pairs). */
function recordsOf(project: Project, name: CollectionName): unknown[] {
  const view = collectionView(project, name);
  return view.values ? Array.from(view.values()) : Array.from(view.entries(), ([, record]) => record);
}

/**
 * A collection's records as `projectState` writes them, one at a time: what a state file logs for a change and
 * streams for a snapshot, and what a streamed export writes, without building the whole document.
 */
export function collectionView(project: Project, name: CollectionName): CollectionView {
  return storeView(project.stores, name);
}

/** The `project` part of a project's document: what is not in a collection. */
export function projectHeader(project: Project): ProjectDocument["project"] {
  return {
    id: project.id,
    name: project.name,
    settings: project.settings,
    clock: clockHeader(project),
    ...(project.seed === undefined ? {} : { seed: project.seed }),
  };
}

function clockHeader(project: Project): ProjectDocument["project"]["clock"] {
  const { offsetMs, frozenAt } = project.clock;
  return frozenAt === undefined
    ? { offset_ms: offsetMs }
    : { offset_ms: offsetMs, frozen_at: new Date(frozenAt).toISOString() };
}
