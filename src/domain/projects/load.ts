import { loadFixtures } from "../../platform/fixtures.js";
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
