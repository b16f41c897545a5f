import { z } from "zod";
import { clockRoutes } from "./clock.js";
import type { JsonSchema } from "./components.js";
import { demoRoutes } from "./demo/routes.js";
import { faultRoutes } from "./faults.js";
import { feedRoutes } from "./feed.js";
import { healthRoutes } from "./health.js";
import { keyRoutes } from "./keys.js";
import { openApiOf } from "./openapi.js";
import { operationRoutes } from "./operations.js";
import { projectRoutes } from "./projects.js";
import { requestRoutes } from "./requests.js";
import type { ControlRoute } from "./route-table.js";
import { settingsRoutes } from "./settings.js";
import { snapshotRoutes } from "./snapshots.js";
import { stateRoutes } from "./state.js";
import { viewRoutes } from "./view-routes.js";
import { webhookRoutes } from "./webhooks.js";

/** The control API's own description, generated from the table it belongs to. */
const documentRoute: ControlRoute = {
  method: "GET",
  path: "/openapi.json",
  tag: "server",
  summary: "This document",
  output: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }),
  handle: () => controlOpenApi(),
};

/**
 * Every control route, in the order they are mounted: the one declaration the router (mount.ts) and the
 * OpenAPI document at /__mock/openapi.json (openapi.ts) are both made from.
 */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  ...healthRoutes,
  documentRoute,
  ...operationRoutes,
  ...projectRoutes,
  ...clockRoutes,
  ...keyRoutes,
  ...requestRoutes,
  ...faultRoutes,
  ...settingsRoutes,
  ...viewRoutes,
  ...webhookRoutes,
  ...feedRoutes,
  ...stateRoutes,
  ...snapshotRoutes,
  ...demoRoutes,
];

let document: JsonSchema | undefined;

/** The control API's OpenAPI 3.1 document, served at /__mock/openapi.json: generated from the table, once. */
export function controlOpenApi(): JsonSchema {
  document ??= openApiOf(CONTROL_ROUTES);
  return document;
}
