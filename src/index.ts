/** The package's library surface: start a server from a test suite, or build the app yourself. */
export { ApiError } from "./domain/errors.js";
export { loadProjectDocuments } from "./domain/projects/load.js";
export type { ProjectDocument, ProjectDocumentInput } from "./domain/projects/project-document.js";
export { projectDocumentSchema } from "./domain/projects/project-document.js";
export { exportProject, replaceProjectState } from "./domain/projects/state.js";
export type { Envelope } from "./domain/webhooks/envelope.js";
export { signBody, verifySignature } from "./domain/webhooks/envelope.js";
export type { Notification } from "./domain/webhooks/notification.js";
export type { SpeedTrick, SpeedTricks } from "./http/fast/index.js";
export type { ConnectionLimits } from "./http/http-server.js";
export type { InputLimits } from "./http/input-limits.js";
export {
  type AppDeps,
  createApp,
  createHttpServer,
  DEFAULT_CONNECTION_LIMITS,
  DEFAULT_INPUT_LIMITS,
  ProjectRegistry,
} from "./library.js";
export { StateFileError } from "./persistence/state-file.js";
export type { StateSyncMode } from "./persistence/state-writer.js";
export { type Clock, ManualClock, ProjectClock, systemClock } from "./platform/clock.js";
export { DEFAULT_FIXTURES_DIR, FixtureError } from "./platform/fixtures.js";
export { type RunningServer, type StartOptions, startServer } from "./server.js";
