/**
 * The speed tricks, fenced. Each makes a request cheaper without changing a byte of what the server answers or
 * journals, and each can be switched off with createApp's `speedTricks` option, which runs the ordinary path
 * instead. README.md in this folder says, per trick, what it does, why it is correct, what it buys as measured,
 * and how to switch it off. The rest of the code calls only what this file exports.
 */
import type { RequestListener } from "node:http";
import type { Express, NextFunction, Request } from "express";
import type { JournalRecord, RequestJournal } from "../../emulation/journal/journal.js";
import { parseForm, plainFormLength } from "./form-reader.js";
import { plainJsonLength, readPlainBody, readPlainJson } from "./json-reader.js";
import { keepBuilt, keepUnbuilt } from "./lazy-journal.js";
import { appMessageClasses, type MessageClasses } from "./prototypes.js";

export const SPEED_TRICKS = ["prototypes", "jsonReader", "formReader", "lazyJournal"] as const;
export type SpeedTrick = (typeof SPEED_TRICKS)[number];
/** Which tricks to run; a trick left out runs (all do by default). */
export type SpeedTricks = Partial<Record<SpeedTrick, boolean>>;

type Chosen = Readonly<Record<SpeedTrick, boolean>>;
const ALL: Chosen = Object.freeze({
  prototypes: true,
  jsonReader: true,
  formReader: true,
  lazyJournal: true,
});

/** Records on `app` which tricks it runs with (createApp calls this before anything reads them). */
export function chooseSpeedTricks(app: Express, tricks: SpeedTricks = {}): void {
  const chosen = { ...ALL };
  for (const name of SPEED_TRICKS) chosen[name] = tricks[name] ?? true;
  app.locals.speedTricks = Object.freeze(chosen);
}

/** The tricks `app` runs with: all of them for an app that chose none. */
function tricksOf(app: unknown): Chosen {
  return (app as Partial<Express> | undefined)?.locals?.speedTricks ?? ALL;
}

/** createServer's options for serving `listener`: an Express app's requests built on its prototypes (prototypes.ts). */
export function messageClassesFor(listener: RequestListener): MessageClasses {
  return tricksOf(listener).prototypes ? appMessageClasses(listener) : {};
}

/**
 * Reads a plain JSON body of the request itself (json-reader.ts) and says so, calling `done` with the value or
 * `next` with body-parser's error for it; false when body-parser must read the body.
 */
export function readJsonBody(
  req: Request,
  limit: number,
  next: NextFunction,
  done: (body: unknown) => void,
  parse?: (text: string) => unknown,
): boolean {
  if (!tricksOf(req.app).jsonReader) return false;
  const length = plainJsonLength(req, limit);
  if (length === undefined) return false;
  readPlainJson(req, length, next, done, parse);
  return true;
}

/**
 * Reads a plain form body of the request itself (form-reader.ts) and says so, calling `done` with the value or
 * `next` with body-parser's error for it; false when body-parser must read the body.
 */
export function readFormBody(
  req: Request,
  limit: number,
  parameterLimit: number,
  next: NextFunction,
  done: (body: unknown) => void,
): boolean {
  if (!tricksOf(req.app).formReader) return false;
  const length = plainFormLength(req, limit);
  if (length === undefined) return false;
  readPlainBody(req, length, next, (text) => parseForm(text, parameterLimit), done);
  return true;
}

/**
 * Keeps a journaled exchange in `journal`: its entry built now, or with the lazy journal (lazy-journal.ts) each
 * time the journal is read, in which case `record.entry()` must make a new entry on every call and nobody may
 * change the record afterwards.
 */
export function recordExchange(
  app: unknown,
  journal: RequestJournal,
  capacity: number,
  record: JournalRecord,
): void {
  if (tricksOf(app).lazyJournal) keepUnbuilt(journal, record, capacity);
  else keepBuilt(journal, record, capacity);
}
