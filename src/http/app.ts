import express, { type Express, type Request, type RequestHandler, type Router } from "express";
import type { Logger } from "pino";
import { attribute } from "../domain/auth/attribution.js";
import type { ProjectRegistry } from "../domain/projects/registry.js";
import { requestId } from "../platform/ids.js";
import { silentLogger } from "../platform/logger.js";
import { controlRouter } from "./control/router.js";
import { type CorsOrigins, cors } from "./cors.js";
import { credentialsOf } from "./credentials.js";
import { errorHandler, unknownRoute } from "./error-handler.js";
import { chooseSpeedTricks, type SpeedTricks } from "./fast/index.js";
import type { InputLimits } from "./input-limits.js";
import { useJsonAnswers } from "./json-response.js";
import { mountOperations } from "./operation-routes.js";
import { requestLog } from "./request-log.js";
import { type ChangeSink, trackChanges } from "./track-changes.js";
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
}

/**
 * Builds the emulator's Express app over a registry of projects. It never listens: the entry point, the library
 * and the tests decide where it runs.
 */
export function createApp(deps: AppConfig): Express {
  const { bodyLimit } = deps;
  const app = baseApp({ ...deps, requestIds: seededRequestIds(deps.registry) });
  // Next: a browser's preflight carries neither the admin token nor credentials.
  app.use(entrance(cors(deps.corsOrigins)));
  // Before every router, so that routes added later are covered without knowing about persistence.
  if (deps.changes) app.use(trackChanges(deps.changes));
  // The dashboard's files and the control API under one mount, so that a request of the service's API passes
  // one `/__mock` step rather than two. The dashboard comes before the control API and its admin token: the page
  // must load to ask for the token.
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
      },
      { extensions: deps.controlExtensions ?? [] },
    ),
  );
  app.use("/__mock", mock);
  // Everything else is the service's API: journaled, and open to each project's faults and rate limit.
  app.use(trafficMiddleware(deps.registry));
  mountOperations(app, { registry: deps.registry, bodyLimit });
  return finishApp(app, bodyLimit);
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

/**
 * What every request passes first, as one router step: its leading slashes merged, then CORS (which answers a
 * preflight). Each step of the app's router costs every request its dispatch; issue 26 measured the two steps
 * these were, with the dashboard's own mount, at about 5 us of a GET's 45 us of user CPU.
 */
function entrance(corsHandler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    mergeLeadingSlashes(req);
    return corsHandler(req, res, next);
  };
}

/**
 * With a seed, a request's id comes from the generator of the project its credentials name (the same attribution
 * the journal uses, made once more here, before any route: the id is in the answer's head and every log line), and
 * from the server's for a control call or a request no project claims. Without a seed the request log keeps the
 * pooled CSPRNG: until a project with a seed of its own is created, the unseeded path costs one more boolean read
 * per request.
 */
function seededRequestIds(registry: ProjectRegistry): (req: Request) => string {
  const seeded = (req: Request): string => {
    if (req.url.startsWith("/__mock")) return registry.ids.requestId();
    const attribution = attribute(registry, credentialsOf(req));
    return (attribution?.project.ids ?? registry.ids).requestId();
  };
  if (registry.seed !== undefined) return seeded;
  return (req) => (registry.seeded ? seeded(req) : requestId());
}

/** The Express app with its settings and request logging (and request ids), before any route. */
export function baseApp(
  deps: Pick<AppConfig, "logger" | "trustProxy" | "inputLimits" | "speedTricks"> & {
    /** Makes each request's id; the pooled CSPRNG when absent (see request-log.ts). */
    requestIds?: (req: Request) => string;
  },
): Express {
  const app = express();
  chooseSpeedTricks(app, deps.speedTricks);
  // Headers the real service does not send and that cost time on every response.
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", deps.trustProxy);
  // Read by every body parser of the app (http/body.ts), rather than threaded through each router.
  app.locals.inputLimits = deps.inputLimits;
  // The service has no conditional requests: an `If-None-Match: *` must not turn an answer into an empty 304.
  Object.defineProperty(app.request, "fresh", { get: () => false, configurable: true });
  useJsonAnswers(app);
  app.use(requestLog(deps.logger ?? silentLogger, deps.requestIds));
  return app;
}

/** After the routes: unknown paths become 404 and every error becomes the service's error object. */
export function finishApp(app: Express, bodyLimit: number): Express {
  app.use(unknownRoute);
  app.use(errorHandler(bodyLimit));
  return app;
}
