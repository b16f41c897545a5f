import type { RequestHandler, Response } from "express";
import { requestIdOf } from "./context.js";
import { errorBody, stateNotSaved } from "./errors.js";

/** Where the app reports changes: the state writer, seen from the HTTP layer. */
export interface ChangeSink {
  readonly sync: "interval" | "always";
  markDirty(): void;
  commit(): Promise<void>;
}

/** Methods that never change state; every other request may, whichever route (present or future) serves it. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Reports every request that may have changed state, without routes having to say so: a non-GET request marks
 * the state unsaved once its response is done. In `always` mode a successful response is held back until a
 * save holding its change is on disk, so an acknowledged change survives a crash; if that save fails, the client
 * gets a 500 instead of the acknowledgement. Error responses changed nothing (a refused request changes nothing),
 * so they go out at once.
 */
export function trackChanges(sink: ChangeSink): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (sink.sync === "interval") {
      res.once("close", () => sink.markDirty());
      return next();
    }
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      if (res.statusCode >= 400) {
        sink.markDirty();
        return end(...args);
      }
      sink.commit().then(
        () => end(...args),
        (error: unknown) => {
          res.err = error instanceof Error ? error : new Error(String(error));
          if (res.headersSent) {
            res.destroy();
            return;
          }
          const body = JSON.stringify(errorBody(stateNotSaved(error), requestIdOf(req)));
          res.statusCode = 500;
          res.setHeader("Content-Type", "application/json; charset=utf-8");
          res.setHeader("Content-Length", Buffer.byteLength(body));
          end(body);
        },
      );
      return res;
    }) as Response["end"];
    next();
  };
}
