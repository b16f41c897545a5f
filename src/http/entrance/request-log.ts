import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { requestId } from "../../platform/ids.js";

declare module "http" {
  interface IncomingMessage {
    /** The service's request id (`v-` + 18 hex), made by requestLog. */
    id: string;
  }
  interface ServerResponse {
    /** An unexpected error behind a 5xx, logged with its stack when the response is done. */
    err?: Error | undefined;
  }
}

/**
 * Gives every request the service's request id (in `X-Request-Id` and, through the error handler, in every error
 * body) and writes one log line when the exchange is over: 5xx at error (with the stack of `res.err`), 4xx and
 * aborted exchanges at warn, the rest at info. An incoming X-Request-Id is logged as `clientRequestId` but never reused, so ids stay unique
 * and in the service's format.
 *
 * One flat line per request rather than pino-http's serialized request and response: at thousands of requests per
 * second the serializers, the per-request child logger and the redaction of copied headers cost more than the
 * operation itself (see docs/performance.md). Headers are logged at debug only, through the logger's redaction,
 * so secrets never reach the log at any level.
 *
 * `idFor` makes the id: the pooled CSPRNG by default; a seeded server passes one that draws from the generator of
 * the project the request's credentials name (see seededRequestIds in app.ts).
 */
export function requestLog(logger: Logger, idFor: (req: Request) => string = requestId): RequestHandler {
  const start = startRequestLog(logger, idFor);
  return (req, res, next) => {
    start(req, res);
    next();
  };
}

/** requestLog's work as a step of a larger one (the app's entrance, app.ts): never refuses, never answers. */
export function startRequestLog(
  logger: Logger,
  idFor: (req: Request) => string = requestId,
): (req: Request, res: Response) => void {
  return (req, res) => {
    const id = idFor(req);
    req.id = id;
    res.setHeader("X-Request-Id", id);
    // A silent logger (tests, the library by default) pays for nothing more.
    if (!logger.isLevelEnabled("error")) return;
    (res as Logged)[LOGGED] = new Exchange(logger, performance.now());
    // "close" comes once per response; `on` spares the wrapper `once` makes, and one function for every request
    // spares a closure each.
    res.on("close", logExchange);
  };
}

/** What the log line needs that the request and response do not hold. */
class Exchange {
  constructor(
    readonly logger: Logger,
    readonly started: number,
  ) {}
}

const LOGGED = Symbol("logged exchange");
type Logged = Response & { [LOGGED]?: Exchange };

/** The response's "close" listener: the exchange's one log line. */
function logExchange(this: Logged): void {
  const exchange = this[LOGGED];
  if (exchange === undefined) return;
  this[LOGGED] = undefined;
  const { logger } = exchange;
  const req = this.req;
  const status = this.statusCode;
  const finished = this.writableFinished;
  // A connection closed before the answer (the client gave up, or a `drop` fault) is worth a warning.
  const level = this.err || status >= 500 ? "error" : status >= 400 || !finished ? "warn" : "info";
  if (!logger.isLevelEnabled(level)) return;
  const line: Record<string, unknown> = {
    reqId: req.id,
    method: req.method,
    url: req.originalUrl,
    statusCode: finished ? status : null,
    responseTime: Math.round(performance.now() - exchange.started),
  };
  const clientId = req.headers["x-request-id"];
  if (clientId !== undefined) line.clientRequestId = clientId;
  if (this.err) line.err = this.err;
  // Under the logger's redact paths (req.headers["x-app-token"], ...), so secrets are censored.
  if (logger.isLevelEnabled("debug")) line.req = { headers: req.headers, remoteAddress: req.ip };
  logger[level](line, finished ? "request completed" : "request aborted");
}
