import { Router } from "express";
import { routeNotFound } from "../errors/http-errors.js";
import { requireAdminToken } from "./admin-token.js";
import type { ControlDeps } from "./deps.js";
import { announceControlChanges } from "./feed.js";
import { mountControlRoutes } from "./mount.js";
import { CONTROL_ROUTES } from "./table.js";

export interface ControlOptions {
  /** More control routes, mounted after the table's, behind the admin token check. */
  extensions?: readonly Router[];
}

/**
 * The control API, mounted at /__mock: a prefix no route of the real service can clash with. JSON in and out,
 * errors in the service's error object, described by its own OpenAPI document at /__mock/openapi.json. Every
 * route comes from one table (table.ts), which the document is generated from too.
 */
export function controlRouter(deps: ControlDeps, options: ControlOptions = {}): Router {
  const router = Router();
  router.use(requireAdminToken(deps.adminToken));
  router.use(announceControlChanges(deps));
  mountControlRoutes(router, CONTROL_ROUTES, deps);
  for (const extension of options.extensions ?? []) router.use(extension);
  // Unknown control paths end here rather than falling through to the service's routes and the journal.
  router.use((req) => {
    throw routeNotFound(req.method, req.originalUrl.split("?")[0] ?? req.path);
  });
  return router;
}
