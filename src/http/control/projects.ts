import { ZodError, z } from "zod";
import { invalidPayload } from "../../domain/errors.js";
import {
  creationIds,
  documentFromTemplate,
  filledPostedDocument,
  postedSeed,
  templateRequestSchema,
} from "../../domain/projects/create.js";
import { parseDocumentInSteps } from "../../domain/projects/document-steps.js";
import { runInSlices } from "../../platform/steps.js";
import { bodyRefusal, parseBody } from "../input/validate.js";
import { createdProjectAnswer, deletedAnswer, listSchema, projectAnswer } from "./answers.js";
import { type ControlRoute, row } from "./route-table.js";
import { keyView, listOf, projectView } from "./shapes.js";

const projectList = listSchema("projects", projectAnswer);

/** A template request or a posted document: told apart by `template`, so the row parses it (see below). */
const createProjectBody = z.unknown().meta({
  oneOf: [
    { $ref: "#/components/schemas/TemplateRequest" },
    { $ref: "#/components/schemas/PostedProjectDocument" },
  ],
} as never);

/** Projects (tenants): create one per CI job, look at them, remove them, put them back to their fixtures. */
export const projectRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: "/projects",
    tag: "projects",
    summary: "All projects",
    output: projectList,
    handle: ({ deps }) => listOf("projects", deps.registry.list().map(projectView)),
  }),
  row({
    method: "POST",
    path: "/projects",
    tag: "projects",
    summary: "Create an isolated project",
    description:
      "A project document in the fixture format (project id and API key credentials are generated when absent), " +
      "or {template} naming a loaded project whose fixtures are copied under a fresh id and fresh keys. " +
      "409 limit_exceeded when the server holds LOYALTY_MOCK_PROJECT_LIMIT projects.",
    body: createProjectBody,
    // Its ids are drawn as it arrives; the document (a million cards, maybe) is then validated a slice at a time.
    parse: async (body, { registry }) => {
      if (body === null || typeof body !== "object" || Array.isArray(body))
        throw invalidPayload("Request body should be object");
      if (Object.hasOwn(body, "template")) {
        const request = parseBody(templateRequestSchema, body);
        const ids = creationIds(request.seed, registry.ids);
        const document = documentFromTemplate(registry, request, ids);
        const parsed = await runInSlices(parseDocumentInSteps(document), { sliceMs: registry.sliceMs });
        if (!parsed.ok) throw new ZodError([parsed.issue]);
        return { document: parsed.value, template: request.template };
      }
      const ids = creationIds(postedSeed(body as Record<string, unknown>), registry.ids);
      const document = filledPostedDocument(body, ids);
      const parsed = await runInSlices(parseDocumentInSteps(document), { sliceMs: registry.sliceMs });
      if (!parsed.ok) throw bodyRefusal([parsed.issue], body);
      return { document: parsed.value, template: null };
    },
    status: 201,
    output: createdProjectAnswer,
    errors: { 404: ["not_found"], 409: ["conflict", "limit_exceeded"] },
    handle: async ({ deps: { registry }, body: { document, template } }) => {
      const project = await registry.createInSlices(document);
      const keys = project.apiKeys.list().map(keyView);
      return {
        object: "project",
        project_id: project.id,
        name: project.name,
        app_id: keys[0]?.app_id,
        app_token: keys[0]?.app_token,
        api_keys: keys,
        now: project.clock.iso(),
        template,
      };
    },
  }),
  row({
    method: "GET",
    path: "/projects/{projectId}",
    tag: "projects",
    summary: "One project",
    output: projectAnswer,
    handle: ({ project }) => projectView(project),
  }),
  row({
    method: "DELETE",
    path: "/projects/{projectId}",
    tag: "projects",
    summary: "Remove a project and everything in it",
    output: deletedAnswer,
    handle: ({ deps, project }) => {
      deps.registry.remove(project.id);
      return { object: "project", id: project.id, deleted: true };
    },
  }),
  row({
    method: "POST",
    path: "/projects/{projectId}/reset",
    tag: "projects",
    summary: "The project back to its fixtures",
    description:
      "409 when one of its fixture keys now belongs to another project (deleted here, created there).",
    output: projectAnswer,
    errors: { 409: ["conflict"] },
    handle: async ({ deps, project }) => projectView(await deps.registry.resetInSlices(project.id)),
  }),
  row({
    method: "POST",
    path: "/reset",
    tag: "projects",
    summary: "Every project back to its fixtures",
    description: "All or nothing: 409 when two projects' fixtures claim one app id or access token.",
    output: projectList,
    errors: { 409: ["conflict"] },
    handle: async ({ deps: { registry } }) => {
      await registry.resetAllInSlices();
      return listOf("projects", registry.list().map(projectView));
    },
  }),
];
