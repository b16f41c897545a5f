import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import type { Logger } from "pino";
import { loadProjectDocuments } from "./domain/projects/load.js";
import type { ProjectDocument } from "./domain/projects/project-document.js";
import { ProjectRegistry } from "./domain/projects/registry.js";
import type { V2AuthMode } from "./domain/projects/settings.js";
import { createApp } from "./http/app.js";
import { type Clock, systemClock } from "./platform/clock.js";
import { DEFAULT_FIXTURES_DIR } from "./platform/fixtures.js";
import { silentLogger } from "./platform/logger.js";

export interface StartOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** A fixtures folder; the embedded default dataset when absent. */
  fixturesDir?: string;
  /** Project documents to serve instead of reading a folder. */
  documents?: ProjectDocument[];
  logger?: Logger;
  clock?: Clock;
  bodyLimit?: number;
  tokenGraceSeconds?: number;
  /** Most live OAuth tokens per project (the spec's 1000 by default). */
  tokenLimit?: number;
  v2AuthMode?: V2AuthMode;
  trustProxy?: boolean | string | number;
  /** When set, every control call (/__mock) must send it in X-Mock-Admin-Token. */
  adminToken?: string;
  /** Requests each project's journal keeps; default 1000. */
  journalSize?: number;
}

export interface RunningServer {
  /** Base URL, such as http://127.0.0.1:3000 */
  url: string;
  host: string;
  port: number;
  app: Express;
  registry: ProjectRegistry;
  server: Server;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

/** Loads the fixtures, builds the app and listens. Resolves once the server accepts connections. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const documents = options.documents ?? loadProjectDocuments(options.fixturesDir ?? DEFAULT_FIXTURES_DIR);
  const registry = new ProjectRegistry({
    clock: options.clock ?? systemClock,
    documents,
    defaults: {
      ...(options.tokenGraceSeconds !== undefined && { tokenGraceSeconds: options.tokenGraceSeconds }),
      ...(options.tokenLimit !== undefined && { tokenLimit: options.tokenLimit }),
      ...(options.v2AuthMode !== undefined && { v2AuthMode: options.v2AuthMode }),
      ...(options.journalSize !== undefined && { journalSize: options.journalSize }),
    },
  });
  const app = createApp({
    registry,
    logger: options.logger ?? silentLogger,
    ...(options.bodyLimit !== undefined && { bodyLimit: options.bodyLimit }),
    ...(options.trustProxy !== undefined && { trustProxy: options.trustProxy }),
    ...(options.adminToken !== undefined && { adminToken: options.adminToken }),
  });
  const host = options.host ?? "127.0.0.1";
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(options.port ?? 3000, host, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    host,
    port,
    app,
    registry,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
