import type { RequestListener, Server } from "node:http";
import type { Express } from "express";
import type { Logger } from "pino";
import type { ProjectDocument } from "./domain/projects/project-document.js";
import { ProjectRegistry as Registry } from "./domain/projects/registry.js";
import type { Caps, ProjectDefaults } from "./domain/projects/settings.js";
import type { Send, WebhookSettings } from "./domain/webhooks/dispatcher.js";
import { type AppConfig, createApp as buildApp } from "./http/app.js";
import { createHttpServer as buildHttpServer, type ConnectionLimits } from "./http/http-server.js";
import type { InputLimits } from "./http/input-limits.js";
import type { Clock } from "./platform/clock.js";
import { DEFAULTS, type Settings } from "./settings.js";

/**
 * The library's way in to the HTTP layer. Inside, every value is given; here a caller gives only what it wants
 * to change, and the rest comes from the settings table's defaults, the same a server started with nothing set
 * runs with.
 */

/**
 * The server-wide project settings from the server's settings. The rate limit is per minute, as the service
 * counts its plans' limits; a project's own `rate_limit` replaces it.
 */
export function projectDefaultsOf(
  settings: Pick<
    Settings,
    | "v2AuthMode"
    | "tokenGraceSeconds"
    | "tokenLimit"
    | "journalSize"
    | "rateLimitPerMinute"
    | "caps"
    | "webhookTimeoutMs"
    | "webhookQueueLimit"
    | "webhookOutboxSize"
    | "webhookHosts"
  >,
): ProjectDefaults {
  const { v2AuthMode, tokenGraceSeconds, tokenLimit, journalSize, rateLimitPerMinute, caps } = settings;
  const rateLimit = rateLimitPerMinute > 0 ? { limit: rateLimitPerMinute, window_seconds: 60 } : null;
  const webhooks = {
    timeoutMs: settings.webhookTimeoutMs,
    queueLimit: settings.webhookQueueLimit,
    outboxSize: settings.webhookOutboxSize,
    hosts: settings.webhookHosts ?? [],
  };
  return { v2AuthMode, tokenGraceSeconds, tokenLimit, journalSize, rateLimit, caps: { ...caps }, webhooks };
}

/** Project defaults as a caller gives them: any of them, any of the caps and any of the webhook settings. */
export type GivenDefaults = Partial<Omit<ProjectDefaults, "caps" | "webhooks">> & {
  caps?: Partial<Caps>;
  webhooks?: Partial<WebhookSettings>;
};

/** All projects of a server; the project defaults (and caps) the caller leaves out are the settings table's. */
export class ProjectRegistry extends Registry {
  constructor(options: {
    clock: Clock;
    documents?: ProjectDocument[];
    defaults?: GivenDefaults;
    send?: Send;
  }) {
    const base = projectDefaultsOf(DEFAULTS);
    const caps = { ...base.caps, ...options.defaults?.caps };
    const webhooks = { ...base.webhooks, ...options.defaults?.webhooks };
    super({ ...options, defaults: { ...base, ...options.defaults, caps, webhooks } });
  }
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
    ...deps,
    bodyLimit: deps.bodyLimit ?? DEFAULTS.bodyLimit,
    trustProxy: deps.trustProxy ?? DEFAULTS.trustProxy,
    corsOrigins: deps.corsOrigins ?? DEFAULTS.corsOrigins,
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
