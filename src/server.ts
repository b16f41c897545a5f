import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import ipaddr from "ipaddr.js";
import type { Logger } from "pino";
import { shippedPlayer } from "./clients/play/shipped.js";
import { projectDefaultsOf } from "./config/project-defaults.js";
import { DEFAULTS } from "./config/settings.js";
import type { StartOptions } from "./config/start-options.js";
import { loadProjectDocuments } from "./domain/projects/load.js";
import { ProjectRegistry } from "./domain/projects/registry.js";
import { createApp, heldRequestsOf } from "./http/app.js";
import { stopPlays } from "./http/control/demo/plays.js";
import { createHttpServer } from "./http/server/http-server.js";
import { type LoadedState, loadState } from "./persistence/load-state.js";
import { logFilesOf } from "./persistence/replay.js";
import { restoreProjects, StateFileError } from "./persistence/state-file.js";
import { StateStore } from "./persistence/state-store.js";
import type { StateWriter } from "./persistence/state-writer.js";
import { systemClock } from "./platform/clock.js";
import { DEFAULT_FIXTURES_DIR } from "./platform/fixtures.js";
import { silentLogger } from "./platform/logger.js";

export interface RunningServer {
  /**
   * Base URL, such as http://127.0.0.1:3000; on every address (`host` 0.0.0.0 or ::), the loopback one, which a
   * browser opens.
   */
  url: string;
  host: string;
  port: number;
  app: Express;
  registry: ProjectRegistry;
  server: Server;
  /** The state file's writer (its group commit), when `stateFile` was given. */
  stateWriter: StateWriter | undefined;
  /** The state file's snapshot and log, when `stateFile` was given. */
  stateStore: StateStore | undefined;
  /** Whether the projects came from the state file (its clocks, keys and records) rather than fixtures. */
  restored: boolean;
  /** Writes the state file now (when there is one); resolves once it is on disk. */
  save(): Promise<void>;
  /**
   * Stops the plays the control API started, stops accepting connections, lets in-flight requests finish, gives
   * queued webhook deliveries a short grace (the timeout, at most 2 s) before aborting them, then saves the state
   * file (when there is one). Resolves once all of that is done.
   */
  close(): Promise<void>;
}

type Resolved = ReturnType<typeof withDefaults>;

/**
 * The host of the URL to open: a server on every address (0.0.0.0, ::) is opened on loopback, as no browser
 * opens http://0.0.0.0:3000 (Chrome refuses it); an IPv6 address in brackets.
 */
function openableHost(host: string): string {
  if (ipaddr.isValid(host) && ipaddr.parse(host).range() === "unspecified")
    return ipaddr.parse(host).kind() === "ipv4" ? "127.0.0.1" : "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

/** The options with what the caller left out taken from the settings table's defaults. */
function withDefaults(options: StartOptions) {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return {
    ...DEFAULTS,
    ...(given as StartOptions),
    connectionLimits: { ...DEFAULTS.connectionLimits, ...options.connectionLimits },
    inputLimits: { ...DEFAULTS.inputLimits, ...options.inputLimits },
    caps: { ...DEFAULTS.caps, ...options.caps },
  };
}

/** Projects from the state file when there is one, from fixtures otherwise. */
function buildRegistry(options: Resolved): { registry: ProjectRegistry; saved: LoadedState | undefined } {
  const clock = options.clock ?? systemClock;
  const defaults = projectDefaultsOf(options);
  const saved = options.stateFile === undefined ? undefined : loadState(options.stateFile);
  const seeding = {
    seed: options.seed,
    freezeAt: options.freezeClock === undefined ? undefined : Date.parse(options.freezeClock),
  };
  if (saved && options.stateFile !== undefined) {
    const registry = new ProjectRegistry({ clock, defaults, ...seeding });
    restoreProjects(registry, saved.projects, options.stateFile);
    return { registry, saved };
  }
  const documents = options.documents ?? loadProjectDocuments(options.fixturesDir ?? DEFAULT_FIXTURES_DIR);
  return { registry: new ProjectRegistry({ clock, documents, defaults, ...seeding }), saved: undefined };
}

/**
 * The state file's store, when `stateFile` is given, started: its log open (and, for a new or version-1 state, its
 * first snapshot written), which proves the folder writable now; a StateFileError otherwise. Logs that the state
 * was restored, warning when fixtures were named but not read.
 */
async function openStateStore(
  options: Resolved,
  registry: ProjectRegistry,
  saved: LoadedState | undefined,
  { logger, fixturesNamed }: { logger: Logger; fixturesNamed: boolean },
): Promise<StateStore | undefined> {
  const { stateFile } = options;
  if (stateFile === undefined) return undefined;
  // The first save's failure is the start's error, said once by the caller; later ones are logged as they come.
  let started = false;
  const store = new StateStore({
    file: stateFile,
    registry,
    // A new state starts after any log a crashed first start left behind, which its snapshot then removes.
    gen: saved?.gen ?? logFilesOf(stateFile).at(-1)?.gen ?? 0,
    sync: options.stateSync,
    intervalMs: options.stateSaveIntervalMs,
    compactBytes: options.stateCompactBytes,
    onError: (error) => {
      if (started) logger.error({ err: error, file: stateFile }, "state file not saved");
    },
  });
  // Fixtures asked for by name but not used deserve more than an info line.
  if (saved)
    logger[fixturesNamed ? "warn" : "info"](
      { file: store.writer.file },
      "state restored from the state file; fixtures not read (delete the file to start from them)",
    );
  await startStore(store, saved?.version === 2 ? { replayedBytes: saved.logBytes } : undefined);
  started = true;
  return store;
}

/**
 * Loads the projects, builds the app and listens. Resolves once the server accepts connections. With a state
 * file that cannot be read or validated, or a folder it cannot be written to, it rejects before listening.
 */
export async function startServer(given: StartOptions = {}): Promise<RunningServer> {
  const options = withDefaults(given);
  const logger = options.logger ?? silentLogger;
  const { registry, saved } = buildRegistry(options);
  const restored = saved !== undefined;
  const stateStore = await openStateStore(options, registry, saved, {
    logger,
    fixturesNamed: given.documents !== undefined || given.fixturesDir !== undefined,
  });
  const stateWriter = stateStore?.writer;
  const app = createApp({
    registry,
    logger,
    ...(stateWriter && { changes: stateWriter }),
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy,
    corsOrigins: options.corsOrigins,
    adminToken: options.adminToken,
    inputLimits: options.inputLimits,
    ...(options.speedTricks !== undefined && { speedTricks: options.speedTricks }),
    player: shippedPlayer,
  });
  const { host } = options;
  const server = createHttpServer(app, {
    logger,
    limits: options.connectionLimits,
    requestId: () => registry.ids.requestId(),
  });
  await listen(server, options.port, host);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${openableHost(host)}:${port}`,
    host,
    port,
    app,
    registry,
    server,
    stateWriter,
    stateStore,
    restored,
    save: async () => stateWriter?.flush({ force: true }),
    close: async () => {
      // Live feeds never finish on their own; ended first, they leave the drain to the requests in flight.
      registry.feed.close();
      // Plays the control API started call this server: stopped before the drain, which they would otherwise hold up
      // (a call in flight), or outlive (a pause), keeping the process alive after close. Before the held requests
      // go on, so that a play's held call ends as stopped rather than answered.
      await stopPlays(registry);
      // Requests a fault rule holds back go on now: their delay would outlast the drain, and Docker's grace.
      heldRequestsOf(app)?.release();
      await drain(server, options.drainTimeoutMs);
      // After the requests (their notifications are queued by then); a stuck receiver is cut off after a grace.
      await registry.dispatcher.close();
      await stateStore?.close();
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

async function startStore(store: StateStore, restored: { replayedBytes: number } | undefined): Promise<void> {
  try {
    await store.start(restored);
  } catch (error) {
    await store.close().catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new StateFileError(store.file, `cannot be written (${code})`);
  }
}

/**
 * Stops accepting and waits for in-flight requests. Keep-alive connections are closed as soon as they fall idle
 * (a client holding one open would otherwise keep the server up); after `timeoutMs` the rest are cut.
 */
function drain(server: Server, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close((error) => {
      clearInterval(idle);
      clearTimeout(cut);
      if (error && (error as NodeJS.ErrnoException).code !== "ERR_SERVER_NOT_RUNNING") reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}
