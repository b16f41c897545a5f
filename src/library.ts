import type { RequestListener, Server } from "node:http";
import type { Express } from "express";
import type { Logger } from "pino";
import { type AppConfig, createApp as buildApp } from "./http/app.js";
import { createHttpServer as buildHttpServer, type ConnectionLimits } from "./http/http-server.js";
import type { InputLimits } from "./http/input-limits.js";
import { DEFAULTS } from "./settings.js";

/**
 * The library's way in to the HTTP layer. Inside, every value is given; here a caller gives only what it wants
 * to change, and the rest comes from the settings table's defaults, the same a server started with nothing set
 * runs with.
 */

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = DEFAULTS.connectionLimits;
export const DEFAULT_INPUT_LIMITS: InputLimits = DEFAULTS.inputLimits;

/** createApp's dependencies: the registry, and whatever else the caller wants other than the default. */
export type AppDeps = Omit<AppConfig, "bodyLimit" | "trustProxy" | "inputLimits"> &
  Partial<Pick<AppConfig, "bodyLimit" | "trustProxy">> & { inputLimits?: Partial<InputLimits> };

/**
 * Builds the emulator's Express app over a registry of projects. It never listens: the entry point, the library
 * and the tests decide where it runs.
 */
export function createApp(deps: AppDeps): Express {
  return buildApp({
    ...deps,
    bodyLimit: deps.bodyLimit ?? DEFAULTS.bodyLimit,
    trustProxy: deps.trustProxy ?? DEFAULTS.trustProxy,
    inputLimits: { ...DEFAULTS.inputLimits, ...deps.inputLimits },
  });
}

/**
 * The node:http server an app runs on, with the connection limits and the service's error object for what Node
 * answers itself (http/http-server.ts).
 */
export function createHttpServer(
  app: RequestListener,
  options: { limits?: Partial<ConnectionLimits>; logger?: Logger } = {},
): Server {
  return buildHttpServer(app, { ...options, limits: { ...DEFAULTS.connectionLimits, ...options.limits } });
}
