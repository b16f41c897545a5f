import { healthAnswer } from "./answers.js";
import { type ControlRoute, row } from "./route-table.js";
import { VERSION } from "./version.js";

/** Liveness for CI: it answers once the fixtures are loaded, since the app is built after them. */
export const healthRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: "/health",
    tag: "server",
    summary: "Liveness: 200 once the fixtures are loaded",
    output: healthAnswer,
    handle: ({ deps }) => ({
      status: "ok",
      version: VERSION,
      uptime_s: Math.floor((Date.now() - deps.startedAt) / 1000),
      projects: deps.registry.list().length,
      // Whether the control API asks for X-Mock-Admin-Token, so a deployment check can assert it is not open.
      control: deps.adminToken === undefined ? "open" : "token",
    }),
  }),
];
