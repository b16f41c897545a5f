import type { Request, RequestHandler } from "express";
import { exactUnderKeys, parseExact } from "../../platform/exact-json.js";
import { JsonPieces, type PieceParser } from "../../platform/json-pieces.js";
import { hasBody, jsonBody } from "./body.js";
import { enforceInputLimitsInSlices } from "./limits.js";

/**
 * A JSON body read as it arrives, for the state import: an export of a big project is tens of megabytes, and
 * reading it as one string held the bytes, the string and the parsed document at once. Here each record is
 * parsed by JSON.parse as soon as its bytes are in, and dropped (JsonPieces); what is held is the document being
 * built and the record being read.
 *
 * The outcome is jsonBody's: the same limit (413 `entity.too.large` past it, declared or counted), the same value
 * and the same input limits. Bodies whose first character is not `{` or `[` (a strict-mode refusal, an empty body
 * read as `{}`), another charset, a compressed body or a `+json` type are handed to jsonBody whole, so their
 * answers stay body-parser's to the letter.
 */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*(?:utf-8|"utf-8")\s*)?$/i;

interface BodyError extends Error {
  status: number;
  type: string;
  limit?: number;
}

function bodyError(error: Error, status: number, type: string, limit?: number): BodyError {
  return Object.assign(error, { status, type, ...(limit !== undefined && { limit }) });
}

function tooLarge(limit: number): BodyError {
  return bodyError(new Error("request entity too large"), 413, "entity.too.large", limit);
}

function streamable(req: Request): boolean {
  const { headers } = req;
  const encoding = headers["content-encoding"];
  if (encoding !== undefined && encoding.toLowerCase() !== "identity") return false;
  return PLAIN_JSON.test(headers["content-type"] ?? "");
}

/** The first byte that is not JSON whitespace (a UTF-8 byte order mark skipped), or undefined. */
function firstSignificant(chunk: Buffer): number | undefined {
  const start = chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
  for (let i = start; i < chunk.length; i++) {
    const byte = chunk[i] as number;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return byte;
  }
  return undefined;
}

/** Says the body is left, unread, for jsonBody. */
const WHOLE = Symbol("whole");

async function read(req: Request, limit: number, parse: PieceParser | undefined): Promise<unknown> {
  const chunks = req.iterator({ destroyOnReturn: false });
  const first = await chunks.next();
  const head = first.done ? undefined : (first.value as Buffer);
  const byte = head && firstSignificant(head);
  if (head === undefined || (byte !== 0x7b && byte !== 0x5b)) {
    // Not an object or an array at its start (or only whitespace so far): body-parser's to judge, whole.
    await chunks.return?.();
    if (head) req.unshift(head);
    return WHOLE;
  }
  const pieces = new JsonPieces(parse);
  // A byte order mark (body-parser drops it too) is the first chunk's first bytes: see firstSignificant.
  const bom = head[0] === 0xef ? 3 : 0;
  let received = 0;
  try {
    for (let chunk: Buffer = head; ; ) {
      received += chunk.length;
      if (received > limit) throw tooLarge(limit);
      pieces.push(chunk === head ? chunk.subarray(bom) : chunk);
      const more = await chunks.next();
      if (more.done) break;
      chunk = more.value as Buffer;
    }
  } finally {
    await chunks.return?.();
  }
  const body = pieces.end();
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared !== received)
    throw bodyError(new Error("request size did not match content length"), 400, "request.size.invalid");
  return body;
}

/**
 * `exactUnder`: the root's keys under which integers past 2^53 are kept exactly (each of their records read with
 * parseExact); everything else is read as JSON.parse reads it.
 */
export function streamedJsonBody(
  limit: number,
  exactUnder?: ReadonlySet<string>,
  sliceMs?: number,
): RequestHandler[] {
  const [whole] = jsonBody(limit, exactUnder && { keep: (body) => exactUnderKeys(body, exactUnder) }) as [
    RequestHandler,
  ];
  const parse: PieceParser | undefined =
    exactUnder &&
    ((text, key) => (key !== undefined && exactUnder.has(key) ? parseExact(text) : JSON.parse(text)));
  return [
    (req, res, next) => {
      if (!hasBody(req) || !streamable(req)) return whole(req, res, next);
      if (Number(req.headers["content-length"]) > limit) return next(tooLarge(limit));
      read(req, limit, parse).then(
        (body) => {
          if (body === WHOLE) return whole(req, res, next);
          req.body = body;
          // A document of a million cards is walked a slice at a time, as it is then validated and built.
          enforceInputLimitsInSlices(req, sliceMs).then(() => next(), next);
        },
        (error: Error & { type?: string }) => {
          // A parse error or a body cut short: body-parser's types, so the error handler answers the same.
          if (error.type === undefined)
            bodyError(error, 400, error.name === "SyntaxError" ? "entity.parse.failed" : "request.aborted");
          next(error);
        },
      );
    },
  ];
}
