import { documentProblem } from "../../platform/documents.js";
import { runInSlices, runToEnd } from "../../platform/steps.js";
import { invalidDocument } from "../errors.js";
import { parseDocumentInSteps, type StepsParse } from "./document-steps.js";
import type { Project } from "./project.js";
import type { ProjectDocument } from "./project-document.js";
import type { ProjectRegistry } from "./registry.js";

/**
 * Validates a project document the way the fixture loader does (schemas, then references); a problem is a 400
 * naming its JSON path, such as `$.vouchers[2].code: should be string`.
 */
export function parseProjectDocument(input: unknown): ProjectDocument {
  return documentOf(runToEnd(parseDocumentInSteps(input)), input);
}

/**
 * The same a slice at a time (`PUT /__mock/projects/{projectId}/state`): a million cards are validated between
 * other requests.
 */
export async function parseProjectDocumentInSlices(
  input: unknown,
  sliceMs?: number,
): Promise<ProjectDocument> {
  return documentOf(await runInSlices(parseDocumentInSteps(input), { sliceMs }), input);
}

function documentOf(parsed: StepsParse, input: unknown): ProjectDocument {
  if (!parsed.ok) throw invalidDocument(documentProblem(parsed.issue, input));
  return parsed.value;
}

/**
 * Replaces a project's state with a document, all or nothing: the document is checked whole (shape,
 * references, the project's id, app ids and tokens unused by other projects) before anything changes. The
 * project's fixtures stay as they were, so a reset still goes back to them.
 */
export function replaceProjectState(registry: ProjectRegistry, projectId: string, input: unknown): Project {
  const document = parseProjectDocument(input);
  return registry.replace(checkedFor(registry.get(projectId), document));
}

/**
 * The same with the document parsed and the project found (`PUT /__mock/projects/{projectId}/state`), built in
 * slices while the project serves as it was.
 */
export function replaceProjectDocument(
  registry: ProjectRegistry,
  project: Project,
  document: ProjectDocument,
): Promise<Project> {
  return registry.replaceInSlices(checkedFor(project, document));
}

/** The document, when it names the project it replaces; 400 naming its id otherwise. */
function checkedFor(project: Project, document: ProjectDocument): ProjectDocument {
  if (document.project.id !== project.id)
    throw invalidDocument({
      path: ["project", "id"],
      problem: `should be ${project.id}, the project being replaced`,
    });
  return document;
}
