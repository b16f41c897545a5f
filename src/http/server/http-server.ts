import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import type { ApiError } from "../../domain/errors.js";
import { requestId } from "../../platform/ids.js";
import { silentLogger } from "../../platform/logger.js";
import {
  badHttpRequest,
  errorBody,
  expectationFailed,
  headersTooLarge,
  requestTimeout,
} from "../errors/http-errors.js";
import { messageClassesFor } from "../fast/index.js";
import { fairTurns } from "./fair-turns.js";
import { cutStalledWriters } from "./write-timeout.js";

/**
 * Limits the HTTP server enforces before a request reaches the app: how large its head may be, and how long a
 * client may take to send its head and its whole request. A slow or stalled client is cut off instead of holding
 * a connection (and the memory behind it) for as long as it likes.
 */
export interface ConnectionLimits {
  /** Largest request head (request line and headers), in bytes; 431 above it. */
  headerBytes: number;
  /** Longest wait for a request's head, from its first byte; 408 after it. */
  headersTimeoutMs: number;
  /** Longest wait for a whole request, body included; 408 after it. Not less than `headersTimeoutMs`. */
  requestTimeoutMs: number;
  /** Longest an answer may make no progress (its client reading none of it) before the connection is cut. */
  writeTimeoutMs: number;
}

/** A whole HTTP response carrying the service's error object, for answers written straight to a socket. */
function rawErrorResponse(error: ApiError, id: string): string {
  const json = JSON.stringify(errorBody(error, id));
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? "Error"}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(json)}`,
    `X-Request-Id: ${id}`,
    "Connection: close",
    "",
    json,
  ].join("\r\n");
}

type ClientError = NodeJS.ErrnoException & { reason?: string };

function clientErrorToApiError(error: ClientError, limits: ConnectionLimits): ApiError {
  if (error.code === "HPE_HEADER_OVERFLOW") return headersTooLarge(limits.headerBytes);
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return requestTimeout();
  return badHttpRequest(error.reason ?? error.code ?? "the request could not be read");
}

/**
 * Node answers what it cannot parse (a bad request line or header, a head over the size limit, a client too slow)
 * with a bare status line; clients of the service expect its error object on every answer, so it is written
 * here instead, as Node would: only while no response has started on the connection, which is then closed. The
 * raw bytes (err.rawPacket) are never logged: they hold the request's credentials.
 */
function answerClientErrors(
  server: Server,
  limits: ConnectionLimits,
  logger: Logger,
  newId: () => string,
): void {
  const answered = new WeakSet<Duplex>();
  server.on("clientError", (error: ClientError, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const apiError = clientErrorToApiError(error, limits);
    const id = newId();
    logger.warn(
      { reqId: id, status: apiError.status, code: error.code },
      `request refused before routing: ${apiError.details}`,
    );
    // end() sends the answer and then the FIN; the socket goes once that is flushed.
    socket.end(rawErrorResponse(apiError, id), () => socket.destroy());
  });
}

function sendJsonError(res: ServerResponse, error: ApiError, logger: Logger, id: string): void {
  logger.warn({ reqId: id, status: error.status }, `request refused before routing: ${error.details}`);
  const json = JSON.stringify(errorBody(error, id));
  res.writeHead(error.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(json),
    "X-Request-Id": id,
    Connection: "close",
  });
  res.end(json);
}

/**
 * The node:http server the app runs on, with the connection limits and with every answer Node would give on
 * its own (bad HTTP, too large a head, too slow a client, a missing Host, an Expect it cannot meet, CONNECT) in
 * the service's error object, a write timeout for clients that stop reading, and fair turns between connections
 * (one pipelining connection cannot starve the others). The app itself never listens (see createApp); the entry points call this. An
 * Express app's requests and responses are built on the app's prototypes, a speed trick (http/fast/README.md)
 * that an app made by createApp with `speedTricks: { prototypes: false }` does without.
 */
export function createHttpServer(
  app: RequestListener,
  options: {
    limits: ConnectionLimits;
    logger?: Logger;
    /** The request id of an answer given before the app (the server's seeded generator; the CSPRNG by default). */
    requestId?: () => string;
  },
): Server {
  const { limits } = options;
  const logger = options.logger ?? silentLogger;
  const newId = options.requestId ?? requestId;
  const server = createServer(
    {
      ...messageClassesFor(app),
      maxHeaderSize: limits.headerBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node looks for expired requests this often (30 s by default, which would stretch a 10 s limit to 40 s).
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
      // Checked below, so the answer is the error object rather than Node's empty 400.
      requireHostHeader: false,
    },
    fairTurns((req: IncomingMessage, res: ServerResponse) => {
      if (req.httpVersion === "1.1" && req.headers.host === undefined)
        sendJsonError(res, badHttpRequest("an HTTP/1.1 request must carry a Host header"), logger, newId());
      else app(req, res);
    }),
  );
  answerClientErrors(server, limits, logger, newId);
  cutStalledWriters(server, limits.writeTimeoutMs, logger);
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) =>
    sendJsonError(res, expectationFailed(String(req.headers.expect)), logger, newId()),
  );
  // Without a listener Node closes a CONNECT's connection without a word; this is no proxy, so it says so.
  server.on("connect", (_req: IncomingMessage, socket: Socket) => {
    const id = newId();
    socket.end(
      rawErrorResponse(badHttpRequest("CONNECT is not supported: this server is not a proxy"), id),
      () => socket.destroy(),
    );
  });
  return server;
}
