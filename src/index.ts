/**
 * The package's library surface: start a server from a test suite, or build the app yourself. Inside, every value
 * is given; here a caller gives only what it wants to change, and the rest comes from the settings table's
 * defaults, the same a server started with nothing set runs with.
 */
import type { RequestListener, Server } from "node:http";
import type { Express } from "express";
import type { Logger } from "pino";
import { shippedPlayer } from "./clients/play/shipped.js";
import { completeDefaults, type GivenDefaults } from "./config/project-defaults.js";
import { DEFAULTS } from "./config/settings.js";
import type { ProjectDocument } from "./domain/projects/project-document.js";
import { ProjectRegistry } from "./domain/projects/registry.js";
import type { Send } from "./domain/webhooks/dispatcher.js";
import { type AppConfig, createApp as buildApp } from "./http/app.js";
import type { InputLimits } from "./http/input/limits.js";
import { createHttpServer as buildHttpServer, type ConnectionLimits } from "./http/server/http-server.js";
import type { Clock } from "./platform/clock.js";

export {
  ControlClient,
  type ControlClientOptions,
  ControlError,
  ProjectControl,
} from "./clients/control-client.js";
export type { GivenDefaults } from "./config/project-defaults.js";
export type { StartOptions } from "./config/start-options.js";
export { ApiError } from "./domain/errors.js";
export { loadProjectDocuments } from "./domain/projects/load.js";
export type { ProjectDocument, ProjectDocumentInput } from "./domain/projects/project-document.js";
export { projectDocumentSchema } from "./domain/projects/project-document.js";
export type { ProjectDefaults } from "./domain/projects/settings.js";
export { exportProject } from "./domain/projects/state-export.js";
export { replaceProjectState } from "./domain/projects/state-import.js";
export type { Envelope } from "./domain/webhooks/envelope.js";
export { signBody, verifySignature } from "./domain/webhooks/envelope.js";
export type { Notification } from "./domain/webhooks/notification.js";
export type { SpeedTrick, SpeedTricks } from "./http/fast/index.js";
export type { InputLimits } from "./http/input/limits.js";
export type { ConnectionLimits } from "./http/server/http-server.js";
export { StateFileError } from "./persistence/state-file.js";
export type { StateSyncMode } from "./persistence/state-writer.js";
export { type Clock, ManualClock, ProjectClock, systemClock } from "./platform/clock.js";
export { DEFAULT_FIXTURES_DIR, FixtureError } from "./platform/fixtures.js";
export { type RunningServer, startServer } from "./server.js";
/** The domain's registry class, for its type and `instanceof`; build one with createRegistry. */
export { ProjectRegistry };

/** All projects of a server; the project defaults (and caps) the caller leaves out are the settings table's. */
export function createRegistry(options: {
  clock: Clock;
  documents?: ProjectDocument[];
  defaults?: GivenDefaults;
  send?: Send;
  /** startServer's option of the same name: every made-up value follows from it. For tests only. */
  seed?: string;
  /** startServer's option of the same name: every project's clock stands still at this ISO 8601 instant. */
  freezeClock?: string;
}): ProjectRegistry {
  const { freezeClock, ...rest } = options;
  return new ProjectRegistry({
    ...rest,
    defaults: completeDefaults(options.defaults),
    ...(freezeClock !== undefined && { freezeAt: Date.parse(freezeClock) }),
  });
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = DEFAULTS.connectionLimits;
export const DEFAULT_INPUT_LIMITS: InputLimits = DEFAULTS.inputLimits;

/** createApp's dependencies: the registry, and whatever else the caller wants other than the default. */
export type AppDeps = Omit<AppConfig, "bodyLimit" | "trustProxy" | "inputLimits" | "corsOrigins"> &
  Partial<Pick<AppConfig, "bodyLimit" | "trustProxy" | "corsOrigins">> & {
    inputLimits?: Partial<InputLimits>;
  };

/**
 * Builds the emulator's Express app over a registry of projects. It never listens: the entry point, the library
 * and the tests decide where it runs.
 */
export function createApp(deps: AppDeps): Express {
  return buildApp({
    player: shippedPlayer,
    ...deps,
    bodyLimit: deps.bodyLimit ?? DEFAULTS.bodyLimit,
    trustProxy: deps.trustProxy ?? DEFAULTS.trustProxy,
    corsOrigins: deps.corsOrigins ?? DEFAULTS.corsOrigins,
    inputLimits: { ...DEFAULTS.inputLimits, ...deps.inputLimits },
  });
}

/**
 * The node:http server an app runs on, with the connection limits and the service's error object for what Node
 * answers itself (http/server/http-server.ts).
 */
export function createHttpServer(
  app: RequestListener,
  options: { limits?: Partial<ConnectionLimits>; logger?: Logger } = {},
): Server {
  return buildHttpServer(app, { ...options, limits: { ...DEFAULTS.connectionLimits, ...options.limits } });
}
