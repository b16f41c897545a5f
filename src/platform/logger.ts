import { type DestinationStream, type Logger, pino } from "pino";
import { batchedStdout } from "./log-destination.js";

/** Headers that carry secrets; pino removes their values from every log line. */
export const SECRET_HEADERS = [
  "x-app-token",
  "authorization",
  "x-service-oauth",
  "x-mock-admin-token",
] as const;

export const REDACT_PATHS = SECRET_HEADERS.map((name) => `req.headers["${name}"]`);

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export function createLogger(options: { level: LogLevel; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: "loyalty-mock" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    options.destination ?? batchedStdout(),
  );
}

export const silentLogger: Logger = pino({ level: "silent" });
