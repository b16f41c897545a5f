import type { NextFunction, Request } from "express";

/**
 * The common JSON request read without body-parser's machinery: `Content-Type: application/json` (utf-8 or no
 * charset), no Content-Encoding, a Content-Length within the limit. body-parser reads such a body through
 * type-is, content-type, iconv-lite, raw-body, on-finished and an AsyncResource, measured at 5-8% of a JSON
 * request's time (docs/performance.md); here it is one listener per event and one Buffer.toString. The outcome is
 * the same, byte for byte: the same parsed value for the same bytes (a leading BOM dropped, an empty body read as
 * `{}`, strict mode: objects and arrays only) and the same errors with the same messages and types, which the
 * error handler turns into the service's error object. Everything else (another charset, a compressed or chunked
 * body, a length over the limit) still goes through body-parser.
 */

const JSON_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*(?:utf-8|"utf-8")\s*)?$/i;

/** The declared length of a body this reader takes, or undefined when body-parser must read it. */
export function plainJsonLength(req: Request, limit: number): number | undefined {
  return plainBodyLength(req, limit, "application/json", JSON_TYPE);
}

/**
 * The declared length of a plain body of one media type (`plain`, or a Content-Type `pattern` accepts: the type with
 * a utf-8 charset), not chunked or compressed, its length given and within `limit`; undefined otherwise. What the
 * plain readers (this one, form-reader.ts) take; body-parser reads the rest.
 */
export function plainBodyLength(
  req: Request,
  limit: number,
  plain: string,
  pattern: RegExp,
): number | undefined {
  const { headers } = req;
  const type = headers["content-type"];
  if (type === undefined || (type !== plain && !pattern.test(type))) return undefined;
  if (headers["transfer-encoding"] !== undefined) return undefined;
  const encoding = headers["content-encoding"];
  if (encoding !== undefined && encoding.toLowerCase() !== "identity") return undefined;
  const length = Number(headers["content-length"]);
  return Number.isSafeInteger(length) && length > 0 && length <= limit ? length : undefined;
}

interface BodyError extends Error {
  status: number;
  type: string;
}

export function bodyError(message: string, type: string, from?: Error, status = 400): BodyError {
  const error = (from ?? new Error(message)) as BodyError;
  error.status = status;
  error.type = type;
  return error;
}

/**
 * Reads the body of `length` bytes and parses it as body-parser's strict JSON parser would (with `parse`, which
 * must throw JSON.parse's errors: JSON.parse, or parseExact where 64-bit integers may come); calls `done` with the
 * value, or `next` with body-parser's error for the same input.
 */
export function readPlainJson(
  req: Request,
  length: number,
  next: NextFunction,
  done: (body: unknown) => void,
  parse: (text: string) => unknown = JSON.parse,
): void {
  readPlainBody(
    req,
    length,
    next,
    (text) => {
      try {
        return parseStrict(text, parse);
      } catch (error) {
        throw bodyError("", "entity.parse.failed", error as Error);
      }
    },
    done,
  );
}

/**
 * Reads the body of `length` bytes as utf-8 text (a leading byte order mark dropped, as iconv-lite's decoder,
 * body-parser's, drops it) and hands it to `parse`; calls `done` with what that returns, or `next` with
 * body-parser's error for a body cut short, aborted or failing (or with what `parse` throws).
 */
export function readPlainBody(
  req: Request,
  length: number,
  next: NextFunction,
  parse: (text: string) => unknown,
  done: (body: unknown) => void,
): void {
  const chunks: Buffer[] = [];
  let received = 0;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const onEnd = () => {
    cleanup();
    if (received !== length) {
      next(bodyError("request size did not match content length", "request.size.invalid"));
      return;
    }
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received);
    let text = bytes.toString("utf8");
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let body: unknown;
    try {
      body = parse(text);
    } catch (error) {
      next(error);
      return;
    }
    done(body);
  };
  const onAborted = () => {
    cleanup();
    next(bodyError("request aborted", "request.aborted"));
  };
  const onError = (error: Error) => {
    cleanup();
    next(bodyError(error.message, "request.aborted"));
  };
  const cleanup = () => {
    req.off("data", onData);
    req.off("end", onEnd);
    req.off("aborted", onAborted);
    req.off("error", onError);
  };
  req.on("data", onData);
  req.on("end", onEnd);
  req.on("aborted", onAborted);
  req.on("error", onError);
}

// body-parser 2's strict JSON parse (lib/types/json.js, MIT licence), kept to its messages.
// JSON whitespace is space, tab, line feed and carriage return.
const FIRST_NON_WHITESPACE = /^[ \t\n\r]*([^ \t\n\r]|$)/;

function parseStrict(text: string, parse: (text: string) => unknown): unknown {
  // body-parser reads an empty body as {}, "a common client-side mistake".
  if (text.length === 0) return {};
  if (text[0] !== "{" && text[0] !== "[") {
    const first = FIRST_NON_WHITESPACE.exec(text)?.[1] || undefined;
    if (first !== "{" && first !== "[") throw strictViolation(text, first);
  }
  return parse(text);
}

/** The error JSON.parse gives for the body with everything from its first character on made invalid. */
function strictViolation(text: string, first: string | undefined): Error {
  const index = first === undefined ? -1 : text.indexOf(first);
  const partial = index === -1 ? "" : text.substring(0, index) + "#".repeat(text.length - index);
  try {
    JSON.parse(partial);
    return new SyntaxError("strict violation");
  } catch (error) {
    const syntax = error as Error;
    syntax.message = syntax.message.replace(/#+/g, (placeholder) =>
      text.substring(index, index + placeholder.length),
    );
    return syntax;
  }
}
