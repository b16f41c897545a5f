import { loadFixtures } from "../../platform/fixtures.js";
import { COLLECTIONS, type ProjectDocument, projectDocumentSchema } from "./project-document.js";

/** Every project of a fixtures folder, validated; a broken fixture throws a FixtureError naming file and path. */
export function loadProjectDocuments(dir: string): ProjectDocument[] {
  return loadFixtures(dir, projectDocumentSchema, COLLECTIONS);
}
