import { Router as createRouter, type Router } from "express";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { replaceProjectState } from "../../domain/projects/state-import.js";
import { route } from "../route.js";
import { streamedJsonBody } from "../streamed-json.js";
import { sendProjectState } from "./state-stream.js";

/**
 * An exported project holds every card, customer and recorded event: far more than any request of the six
 * operations, so state imports get their own, larger body limit.
 */
const DEFAULT_STATE_BODY_LIMIT = 32 * 1024 * 1024;

export interface StateRouterDeps {
  registry: ProjectRegistry;
  /** Largest state document accepted by PUT, in bytes (413 above it). */
  bodyLimit?: number;
}

/**
 * `GET /projects/{projectId}/state` exports a project's whole state as a project document (the fixture format);
 * `PUT` the same replaces it, all or nothing. Paths are relative to the control prefix (`/__mock`).
 */
export function stateRouter(deps: StateRouterDeps): Router {
  const router = createRouter();
  const { registry } = deps;
  route(router, "/projects/:projectId/state", {
    get: [
      async (req, res) => {
        await sendProjectState(res, registry.get(String(req.params.projectId)));
      },
    ],
    put: [
      ...streamedJsonBody(deps.bodyLimit ?? DEFAULT_STATE_BODY_LIMIT),
      async (req, res) => {
        const project = replaceProjectState(registry, String(req.params.projectId), req.body);
        await sendProjectState(res, project);
      },
    ],
  });
  return router;
}
