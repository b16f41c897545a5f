import { Router } from "express";
import { routeNotFound } from "../errors.js";
import { requireAdminToken } from "./admin-token.js";
import { clockRoutes } from "./clock.js";
import type { ControlDeps } from "./deps.js";
import { faultRoutes } from "./faults.js";
import { announceControlChanges, feedRoutes } from "./feed.js";
import { healthRoutes } from "./health.js";
import { keyRoutes } from "./keys.js";
import { projectRoutes } from "./projects.js";
import { requestRoutes } from "./requests.js";
import { settingsRoutes } from "./settings.js";
import { viewRoutes } from "./views.js";
import { webhookRoutes } from "./webhooks.js";

export interface ControlOptions {
  /** More control routes (such as project state export and import), mounted behind the admin token check. */
  extensions?: readonly Router[];
}

/**
 * The control API, mounted at /__mock: a prefix no route of the real service can clash with. JSON in and out,
 * errors in the service's error object, described by its own OpenAPI document at /__mock/openapi.json.
 */
export function controlRouter(deps: ControlDeps, options: ControlOptions = {}): Router {
  const router = Router();
  router.use(requireAdminToken(deps.adminToken));
  router.use(announceControlChanges(deps));
  healthRoutes(router, deps);
  projectRoutes(router, deps);
  clockRoutes(router, deps);
  keyRoutes(router, deps);
  requestRoutes(router, deps);
  faultRoutes(router, deps);
  settingsRoutes(router, deps);
  viewRoutes(router, deps);
  webhookRoutes(router, deps);
  feedRoutes(router, deps);
  for (const extension of options.extensions ?? []) router.use(extension);
  // Unknown control paths end here rather than falling through to the service's routes and the journal.
  router.use((req) => {
    throw routeNotFound(req.method, req.originalUrl.split("?")[0] ?? req.path);
  });
  return router;
}
