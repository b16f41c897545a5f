import type { Router } from "express";
import { route } from "../route.js";
import type { ControlDeps } from "./deps.js";
import { controlOpenApi } from "./openapi.js";
import { VERSION } from "./version.js";

/** Liveness for CI (it answers once the fixtures are loaded, since the app is built after them) and the API's own description. */
export function healthRoutes(router: Router, { registry, startedAt }: ControlDeps): void {
  route(router, "/health", {
    get: [
      (_req, res) =>
        void res.json({
          status: "ok",
          version: VERSION,
          uptime_s: Math.floor((Date.now() - startedAt) / 1000),
          projects: registry.list().length,
        }),
    ],
  });

  route(router, "/openapi.json", {
    get: [(_req, res) => void res.json(controlOpenApi())],
  });
}
