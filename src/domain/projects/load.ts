import { loadFixtures } from "../../platform/fixtures.js";
import { EXACT_COLLECTIONS } from "../shared/int64.js";
import { COLLECTIONS, type ProjectDocument, projectDocumentSchema } from "./project-document.js";

/**
 * Every project of a fixtures folder, validated; a broken fixture throws a FixtureError naming file and path. A
 * project folder needs its api-keys.json: without keys none of its operations can be called. Tier structures and
 * incentives keep their 64-bit integers exactly.
 */
export function loadProjectDocuments(dir: string): ProjectDocument[] {
  return loadFixtures(dir, projectDocumentSchema, COLLECTIONS, ["api_keys"], EXACT_COLLECTIONS);
}
