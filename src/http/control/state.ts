import { projectDocumentSchema } from "../../domain/projects/project-document.js";
import { parseProjectDocumentInSlices, replaceProjectDocument } from "../../domain/projects/state-import.js";
import { type ControlRoute, row } from "./route-table.js";
import { sendProjectState } from "./state-stream.js";

/**
 * An exported project holds every card, customer and recorded event: far more than any request of the
 * operations, so state imports get their own, larger body limit.
 */
export const DEFAULT_STATE_BODY_LIMIT = 32 * 1024 * 1024;

const PATH = "/projects/{projectId}/state";

/**
 * `GET /projects/{projectId}/state` exports a project's whole state as a project document (the fixture format);
 * `PUT` the same replaces it, all or nothing. Both answers are streamed: a project may hold a million cards.
 */
export const stateRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: PATH,
    tag: "state",
    summary: "Export the project's whole state in the fixture format",
    stream: "application/json",
    output: projectDocumentSchema,
    handle: ({ res, project }) => sendProjectState(res, project),
  }),
  row({
    method: "PUT",
    path: PATH,
    tag: "state",
    summary: "Replace the project's whole state (validated like fixtures; a bad document changes nothing)",
    body: projectDocumentSchema,
    bodyReader: "stream",
    // Validated as fixtures are, its problems named by JSON path, before anything changes; a slice at a time.
    parse: (body, { registry }) => parseProjectDocumentInSlices(body, registry.sliceMs),
    stream: "application/json",
    output: projectDocumentSchema,
    errors: { 409: ["conflict"] },
    handle: async ({ deps, body, project, res }) =>
      sendProjectState(res, await replaceProjectDocument(deps.registry, project, body)),
  }),
];
