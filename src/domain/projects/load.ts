import { type FixtureError, loadFixtures } from "../../platform/fixtures.js";
import {
  COLLECTION_NAMES,
  EXACT_COLLECTIONS,
  type ProjectDocument,
  projectDocumentSchema,
} from "./project-document.js";

/**
 * Every project of a fixtures folder, validated; a broken fixture throws a FixtureError naming file and path. A
 * project folder needs its api-keys.json: without keys none of its operations can be called. Tier structures and
 * incentives keep their 64-bit integers exactly.
 */
export function loadProjectDocuments(dir: string): ProjectDocument[] {
  return loadFixtures(dir, projectDocumentSchema, COLLECTION_NAMES, ["api_keys"], EXACT_COLLECTIONS);
}

/**
 * The same load, going on past a broken project (`loyalty-mock check`): every project that loads, and the first
 * problem of each that does not, as the start would name it.
 */
export function checkProjectDocuments(dir: string): {
  documents: ProjectDocument[];
  problems: FixtureError[];
} {
  const problems: FixtureError[] = [];
  const documents = loadFixtures(
    dir,
    projectDocumentSchema,
    COLLECTION_NAMES,
    ["api_keys"],
    EXACT_COLLECTIONS,
    (problem) => problems.push(problem),
  );
  return { documents, problems };
}
