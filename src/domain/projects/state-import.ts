import { parseDocument } from "../../platform/documents.js";
import { invalidDocument } from "../errors.js";
import type { Project } from "./project.js";
import { type ProjectDocument, projectDocumentSchema } from "./project-document.js";
import type { ProjectRegistry } from "./registry.js";

/**
 * Validates a project document the way the fixture loader does (schemas, then references); a problem is a 400
 * naming its JSON path, such as `$.vouchers[2].code: should be string`.
 */
export function parseProjectDocument(input: unknown): ProjectDocument {
  const parsed = parseDocument(projectDocumentSchema, input);
  if (!parsed.ok) throw invalidDocument(parsed.problem);
  return parsed.value;
}

/**
 * Replaces a project's state with a document, all or nothing: the document is checked whole (shape,
 * references, the project's id, app ids and tokens unused by other projects) before anything changes. The
 * project's fixtures stay as they were, so a reset still goes back to them.
 */
export function replaceProjectState(registry: ProjectRegistry, projectId: string, input: unknown): Project {
  const document = parseProjectDocument(input);
  return replaceProjectDocument(registry, registry.get(projectId), document);
}

/** The same with the document parsed and the project found (`PUT /__mock/projects/{projectId}/state`). */
export function replaceProjectDocument(
  registry: ProjectRegistry,
  project: Project,
  document: ProjectDocument,
): Project {
  if (document.project.id !== project.id)
    throw invalidDocument({
      path: ["project", "id"],
      problem: `should be ${project.id}, the project being replaced`,
    });
  return registry.replace(document);
}
