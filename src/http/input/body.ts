import express, { type NextFunction, type Request, type RequestHandler } from "express";
import { invalidPayload } from "../../domain/errors.js";
import { mayLoseDigits, parseExact } from "../../platform/exact-json.js";
import { unsupportedMediaType } from "../errors/http-errors.js";
import { readFormBody, readJsonBody } from "../fast/index.js";
import { checkInputLimits, enforceInputLimits } from "./limits.js";

const JSON_TYPES = ["application/json", "application/*+json"];
const FORM_TYPE = "application/x-www-form-urlencoded";
/** Most fields a form body may have; the token endpoint reads two. */
export const FORM_FIELD_LIMIT = 100;

/** A request has a body when it says so: chunked, or a positive length. `Content-Length: 0` is no body. */
export function hasBody(req: Request): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = Number(req.headers["content-length"]);
  return Number.isFinite(length) && length > 0;
}

/**
 * JSON bodies: a body in any other type is 415; then at most `limit` bytes are read, objects and arrays only, and
 * the parsed body must keep to the app's input limits (depth, string lengths, metadata keys). Runs after
 * authentication, so an unauthenticated caller learns nothing about the body.
 *
 * One handler for the three steps, since the read may go two ways: a plain `application/json` body is read by
 * the JSON reader speed trick (http/fast), anything else by body-parser, with the same outcome; the limits apply
 * to either.
 */
export function jsonBody(limit: number, exact?: ExactIntegers): RequestHandler[] {
  const bodyParser = express.json({
    limit,
    strict: true,
    type: JSON_TYPES,
    ...(exact ? { verify: keepBytes } : {}),
  });
  const parse = exact && ((text: string) => parseExact(text, exact.keep));
  const parsed = (req: Request, next: NextFunction) => {
    try {
      enforceInputLimits(req);
    } catch (error) {
      next(error);
      return;
    }
    next();
  };
  return [
    (req, res, next) => {
      if (!hasBody(req)) return next();
      const readHere = readJsonBody(
        req,
        limit,
        next,
        (body) => {
          req.body = body;
          parsed(req, next);
        },
        parse,
      );
      if (readHere) return;
      if (!req.is(JSON_TYPES))
        throw unsupportedMediaType(req.headers["content-type"] ?? "(none)", "application/json");
      bodyParser(req, res, (error?: unknown) => {
        if (error) return next(error);
        if (exact) {
          try {
            rereadExactly(req, exact);
          } catch (failure) {
            return next(failure);
          }
        }
        parsed(req, next);
      });
    },
  ];
}

/**
 * Which integers past 2^53 a body keeps exactly (platform/exact-json.ts): `keep` is handed the body read with
 * every such integer a bigint, and returns it with those it does not keep made doubles (or undefined: all kept).
 * Without it, a body is read as JSON.parse reads it. Only a body whose text has a number a double may not hold
 * is read twice.
 */
export interface ExactIntegers {
  keep?: (body: unknown) => unknown;
}

const BYTES = Symbol("bodyBytes");
type WithBytes = Request & { [BYTES]?: { bytes: Buffer; encoding: string | null } };

/** body-parser's `verify`: keeps the body's bytes (inflated, not yet decoded) for rereadExactly. */
function keepBytes(req: unknown, _res: unknown, bytes: Buffer, encoding: string | null): void {
  (req as WithBytes)[BYTES] = { bytes, encoding };
}

/**
 * What body-parser read (a compressed, chunked or utf-16 body), read again with its integers exact: the same text,
 * decoded as body-parser decodes it (a byte order mark dropped). A charset the platform's decoder lacks (utf-32) is
 * 415 on these operations, whose integers could otherwise be rounded without a word.
 */
function rereadExactly(req: Request, exact: ExactIntegers): void {
  const kept = (req as WithBytes)[BYTES];
  if (!kept) return;
  (req as WithBytes)[BYTES] = undefined;
  let text: string;
  try {
    text = new TextDecoder(kept.encoding ?? "utf-8").decode(kept.bytes);
  } catch {
    throw unsupportedMediaType(
      req.headers["content-type"] ?? "(none)",
      "application/json in utf-8 or utf-16",
    );
  }
  if (mayLoseDigits(text)) req.body = parseExact(text, exact.keep);
}

/**
 * Form bodies for the token endpoint. The service answers another body type with 400 invalid_payload, not 415
 * (docs/reference/operations.md, "Tokens and locations").
 */
export function formBody(limit: number): RequestHandler[] {
  const bodyParser = express.urlencoded({
    limit,
    extended: false,
    parameterLimit: FORM_FIELD_LIMIT,
    type: FORM_TYPE,
  });
  return [
    (req, res, next) => {
      if (!hasBody(req)) return bodyParser(req, res, next);
      const readHere = readFormBody(req, limit, FORM_FIELD_LIMIT, next, (body) => {
        req.body = body;
        next();
      });
      if (readHere) return;
      if (!req.is(FORM_TYPE))
        throw invalidPayload(
          `Request body must be ${FORM_TYPE}; Content-Type '${req.headers["content-type"] ?? "(none)"}' is not accepted`,
        );
      bodyParser(req, res, next);
    },
    checkInputLimits,
  ];
}
