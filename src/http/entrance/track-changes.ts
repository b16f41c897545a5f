import type { Request, RequestHandler, Response } from "express";
import { requestIdOf } from "../context.js";
import { errorBody, stateNotSaved } from "../errors/http-errors.js";

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
  const track = changeTracking(sink);
  return (req, res, next) => {
    track(req, res);
    next();
  };
}

/** trackChanges's work as a step of a larger one (the app's entrance, app.ts). */
export function changeTracking(sink: ChangeSink): (req: Request, res: Response) => void {
  return (req, res) => {
    if (SAFE_METHODS.has(req.method)) return;
    if (sink.sync === "interval") {
      res.once("close", () => sink.markDirty());
      return;
    }
    holdUntilSaved(req, res, sink);
  };
}

/**
 * Holds a successful answer, its status line and headers included, until a save holding its change is on disk:
 * not only `end`, since a streamed answer (a state import's, a project's export) writes before it ends, and a
 * client that has the status has been told the change is done. The first byte of the answer starts the commit;
 * every write and the end wait for it in order, and a writer is asked to wait for `drain` meanwhile. Once the
 * save is on disk and nothing waits, bytes pass straight through.
 */
function holdUntilSaved(req: Request, res: Response, sink: ChangeSink): void {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  let queue: Promise<boolean> | undefined;
  let waiting = 0;
  let through = false;
  const refuse = (error: unknown): false => {
    res.err = error instanceof Error ? error : new Error(String(error));
    if (res.headersSent) {
      res.destroy();
      return false;
    }
    const body = JSON.stringify(errorBody(stateNotSaved(error), requestIdOf(req)));
    res.statusCode = 500;
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.setHeader("Content-Length", Buffer.byteLength(body));
    end(body);
    return false;
  };
  /** Sends now, or after the save and whatever waits before it; false when the caller should wait for drain. */
  const after = (send: () => void): boolean => {
    if (through) return true;
    if (queue === undefined) {
      if (res.statusCode >= 400) {
        sink.markDirty();
        through = true;
        return true;
      }
      queue = sink.commit().then(() => true, refuse);
    }
    waiting++;
    queue = queue.then((saved) => {
      if (saved) send();
      if (--waiting === 0 && saved) through = true;
      return saved;
    });
    return false;
  };
  res.write = ((...args: unknown[]) => {
    if (after(() => write(...args) && res.emit("drain"))) return write(...args);
    return false;
  }) as Response["write"];
  res.end = ((...args: unknown[]) => {
    if (after(() => end(...args))) return end(...args);
    return res;
  }) as Response["end"];
}
