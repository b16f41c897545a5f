import type { ProjectRegistry } from "../../domain/projects/registry.js";
import type { ScenarioPlayer } from "./demo/plays.js";

export interface ControlDeps {
  registry: ProjectRegistry;
  bodyLimit: number;
  /** Largest state document `PUT /projects/{projectId}/state` accepts, in bytes (413 above it). */
  stateBodyLimit?: number | undefined;
  /** When set, every control call must carry it (X-Mock-Admin-Token). */
  adminToken?: string | undefined;
  /** When the server started (epoch ms, wall clock), for the health check's uptime. */
  startedAt: number;
  /** What plays the shipped scenarios (the Play button); without one, none is listed or played. */
  player?: ScenarioPlayer | undefined;
}
