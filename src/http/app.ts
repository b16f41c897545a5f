import express, {
  type Express,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from "express";
import type { Logger } from "pino";
import { attribute } from "../domain/auth/attribution.js";
import type { ProjectRegistry } from "../domain/projects/registry.js";
import { HeldRequests } from "../emulation/faults/held-requests.js";
import { requestId } from "../platform/ids.js";
import { silentLogger } from "../platform/logger.js";
import type { ScenarioPlayer } from "./control/demo/plays.js";
import { controlRouter } from "./control/router.js";
import { type CorsOrigins, cors } from "./entrance/cors.js";
import { requestLog, startRequestLog } from "./entrance/request-log.js";
import { type ChangeSink, changeTracking } from "./entrance/track-changes.js";
import { errorHandler, unknownRoute } from "./error-handler.js";
import { chooseSpeedTricks, type SpeedTricks } from "./fast/index.js";
import type { InputLimits } from "./input/limits.js";
import { useJsonAnswers } from "./json-response.js";
import { credentialsOf } from "./operations/credentials.js";
import { mountOperations } from "./operations/mount.js";
import { trafficMiddleware } from "./traffic/traffic.js";
import { uiRouter } from "./ui.js";

/**
 * What the app is built from. The values are the caller's to give (the entry points take them from the settings
 * table, src/config/settings.ts); the library's createApp (src/index.ts) fills in what its caller leaves out.
 */
export interface AppConfig {
  registry: ProjectRegistry;
  logger?: Logger;
  /** Largest request body accepted, in bytes (413 above it). */
  bodyLimit: number;
  /** Express's "trust proxy": whose X-Forwarded-For to believe when matching IP allow-lists. */
  trustProxy: boolean | string | number;
  /** Browser origins allowed to call, the control API included: `*` for any. */
  corsOrigins: CorsOrigins;
  /** When set, every call of the control API (/__mock) must carry it in X-Mock-Admin-Token. */
  adminToken?: string | undefined;
  /** More control routes, mounted under /__mock behind the admin token check. */
  controlExtensions?: readonly Router[];
  /** Told of every request that may have changed state (the state file's writer, when there is one). */
  changes?: ChangeSink;
  /** Largest state document `PUT /__mock/projects/{id}/state` accepts, in bytes. */
  stateBodyLimit?: number;
  /** Depth, string length and metadata size limits of every parsed body (400 past them). */
  inputLimits: InputLimits;
  /** Speed tricks to switch off (`{ jsonReader: false }`); all run by default. See http/fast/README.md. */
  speedTricks?: SpeedTricks;
  /**
   * What plays the scenarios shipped in the package from the dashboard (the play client, src/clients/play/, which
   * sits above this layer: the library's createApp and startServer give it); without one, none is listed or played.
   */
  player?: ScenarioPlayer;
}

/**
 * Builds the emulator's Express app over a registry of projects. It never listens: the entry point, the library
 * and the tests decide where it runs.
 */
export function createApp(deps: AppConfig): Express {
  const { bodyLimit } = deps;
  const app = baseApp({ ...deps, logRequests: false });
  // Read by the server's close() (heldRequestsOf), which lets them go before it drains.
  const held = new HeldRequests();
  app.locals.heldRequests = held;
  app.use(
    entrance({
      log: startRequestLog(deps.logger ?? silentLogger, seededRequestIds(deps.registry)),
      // A browser's preflight carries neither the admin token nor credentials: answered before either is asked.
      cors: cors(deps.corsOrigins),
      // Before every router, so that routes added later are covered without knowing about persistence.
      ...(deps.changes && { trackChanges: changeTracking(deps.changes) }),
      // Everything outside /__mock is the service's API: journaled, and open to each project's faults and rate
      // limit.
      traffic: trafficMiddleware(deps.registry, held),
    }),
  );
  // The dashboard's files and the control API under one mount. The dashboard comes before the control API and its
  // admin token: the page must load to ask for the token. Nothing falls through it: the control router ends with
  // its own 404.
  const mock = express.Router();
  mock.use("/ui", uiRouter());
  mock.use(
    controlRouter(
      {
        registry: deps.registry,
        bodyLimit,
        stateBodyLimit: deps.stateBodyLimit,
        adminToken: deps.adminToken,
        startedAt: Date.now(),
        player: deps.player,
      },
      { extensions: deps.controlExtensions ?? [] },
    ),
  );
  app.use(MOCK_PREFIX, mock);
  mountOperations(app, { registry: deps.registry, bodyLimit });
  return finishApp(app, bodyLimit);
}

/** The requests the app's fault rules hold back; undefined for an app createApp did not build. */
export function heldRequestsOf(app: Express): HeldRequests | undefined {
  return (app.locals as { heldRequests?: HeldRequests }).heldRequests;
}

/**
 * A client whose base URL ends in a slash sends `//v1/locations/x`. Emulation choice (docs/fidelity.md):
 * answered as `/v1/locations/x`, as servers behind nginx (merge_slashes, on by default) do, rather than a 404 that
 * only the stand-in gives. Only the slashes right after the host merge; a doubled slash further in stays unknown.
 */
function mergeLeadingSlashes(req: Request): void {
  if (req.url.startsWith("//")) {
    req.url = req.url.replace(/^\/+/, "/");
    req.originalUrl = req.url;
  }
}

const MOCK_PREFIX = "/__mock";
const ABSOLUTE_MOCK = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/__mock(?:[/?#]|$)/i;

/**
 * Whether Express's `/__mock` mount takes the path: the prefix in any case (routing is case-insensitive), then the
 * path's end or a slash.
 */
function underMock(url: string): boolean {
  // An absolute-form target (`GET http://host/__mock/health`): Express matches its path.
  if (url.charCodeAt(0) !== 0x2f) return ABSOLUTE_MOCK.test(url);
  if (url.length < MOCK_PREFIX.length) return false;
  const end = url.charCodeAt(MOCK_PREFIX.length);
  // NaN at the end of the URL; otherwise "/", "?" or "#" end the segment.
  if (!(Number.isNaN(end) || end === 0x2f || end === 0x3f || end === 0x23)) return false;
  return url.slice(0, MOCK_PREFIX.length).toLowerCase() === MOCK_PREFIX;
}

/**
 * What every request passes before any route, as one step of the app's router (each step costs every request
 * its dispatch: issue 26 measured three of them at about 5 us of a GET's 45 us of user CPU): its id and log line,
 * its leading slashes merged, CORS (which answers a preflight), the change tracking of the state file, and, for the
 * service's API (not `/__mock`), the traffic step: the journal, the project's faults and its rate limit. In that
 * order, which is the order these had as steps of their own.
 */
function entrance(steps: {
  log: (req: Request, res: Response) => void;
  cors: (req: Request, res: Response) => boolean;
  trackChanges?: (req: Request, res: Response) => void;
  traffic: RequestHandler;
}): RequestHandler {
  const { log, cors: corsStep, trackChanges: track, traffic } = steps;
  return (req, res, next) => {
    log(req, res);
    mergeLeadingSlashes(req);
    if (!corsStep(req, res)) return;
    track?.(req, res);
    if (underMock(req.url)) return next();
    return traffic(req, res, next);
  };
}

/**
 * With a seed, a request's id comes from the generator of the project its credentials name (the attribution the
 * journal uses, decided here first, before any route, and kept for the request: the id is in the answer's head and
 * every log line), and
 * from the server's for a control call or a request no project claims. Without a seed the request log keeps the
 * pooled CSPRNG: until a project with a seed of its own is created, the unseeded path costs one more boolean read
 * per request.
 */
function seededRequestIds(registry: ProjectRegistry): (req: Request) => string {
  const seeded = (req: Request): string => {
    // The entrance's own test of a control call, so the two never disagree on one (`/__MOCK/health`, `/__mockery`).
    if (underMock(req.url)) return registry.ids.requestId();
    const attribution = attribute(registry, credentialsOf(req));
    return (attribution?.project.ids ?? registry.ids).requestId();
  };
  if (registry.seed !== undefined) return seeded;
  return (req) => (registry.seeded ? seeded(req) : requestId());
}

/**
 * The Express app with its settings and request logging (and request ids), before any route. createApp logs in its
 * own entrance step (`logRequests: false`).
 */
export function baseApp(
  deps: Pick<AppConfig, "logger" | "trustProxy" | "inputLimits" | "speedTricks"> & {
    /** Makes each request's id; the pooled CSPRNG when absent (see entrance/request-log.ts). */
    requestIds?: (req: Request) => string;
    logRequests?: boolean;
  },
): Express {
  const app = express();
  chooseSpeedTricks(app, deps.speedTricks);
  // Headers the real service does not send and that cost time on every response.
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", deps.trustProxy);
  // Read by every body parser of the app (http/input/body.ts), rather than threaded through each router.
  app.locals.inputLimits = deps.inputLimits;
  // The service has no conditional requests: an `If-None-Match: *` must not turn an answer into an empty 304.
  Object.defineProperty(app.request, "fresh", { get: () => false, configurable: true });
  useJsonAnswers(app);
  if (deps.logRequests !== false) app.use(requestLog(deps.logger ?? silentLogger, deps.requestIds));
  return app;
}

/** After the routes: unknown paths become 404 and every error becomes the service's error object. */
export function finishApp(app: Express, bodyLimit: number): Express {
  app.use(unknownRoute);
  app.use(errorHandler(bodyLimit));
  return app;
}
