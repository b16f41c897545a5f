import type { Router } from "express";
import { invalidPayload } from "../../domain/errors.js";
import {
  documentFromTemplate,
  postedDocumentSchema,
  templateRequestSchema,
} from "../../domain/projects/create.js";
import type { ProjectDocument } from "../../domain/projects/project-document.js";
import { jsonBody } from "../body.js";
import { route } from "../route.js";
import type { ControlDeps } from "./deps.js";
import { parseBody } from "./input.js";
import { created, keyView, listOf, projectView } from "./shapes.js";

/** Projects (tenants): create one per CI job, look at them, remove them, put them back to their fixtures. */
export function projectRoutes(router: Router, { registry, bodyLimit }: ControlDeps): void {
  route(router, "/projects", {
    get: [(_req, res) => void res.json(listOf("projects", registry.list().map(projectView)))],
    post: [
      ...jsonBody(bodyLimit),
      (req, res) => {
        const body: unknown = req.body;
        if (body === null || typeof body !== "object" || Array.isArray(body))
          throw invalidPayload("Request body should be object");
        let document: ProjectDocument;
        let template: string | null = null;
        if (Object.hasOwn(body, "template")) {
          const request = parseBody(templateRequestSchema, body);
          template = request.template;
          document = documentFromTemplate(registry, request);
        } else document = parseBody(postedDocumentSchema, body);
        const project = registry.create(document);
        const keys = project.apiKeys.list().map(keyView);
        created(res, {
          object: "project",
          project_id: project.id,
          name: project.name,
          app_id: keys[0]?.app_id,
          app_token: keys[0]?.app_token,
          api_keys: keys,
          now: project.clock.iso(),
          template,
        });
      },
    ],
  });

  route(router, "/projects/:projectId", {
    get: [(req, res) => void res.json(projectView(registry.get(String(req.params.projectId))))],
    delete: [
      (req, res) => {
        const id = String(req.params.projectId);
        registry.remove(id);
        res.json({ object: "project", id, deleted: true });
      },
    ],
  });

  route(router, "/projects/:projectId/reset", {
    post: [(req, res) => void res.json(projectView(registry.reset(String(req.params.projectId))))],
  });

  route(router, "/reset", {
    post: [
      (_req, res) => {
        registry.resetAll();
        res.json(listOf("projects", registry.list().map(projectView)));
      },
    ],
  });
}
