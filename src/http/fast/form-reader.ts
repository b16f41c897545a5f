import type { Request } from "express";
import qs from "qs";
import { bodyError, plainBodyLength } from "./json-reader.js";

/**
 * The token endpoint's form read without body-parser's machinery: `Content-Type:
 * application/x-www-form-urlencoded` (utf-8 or no charset), no Content-Encoding, a Content-Length within the limit.
 * body-parser reads such a body through type-is, content-type, iconv-lite, raw-body, on-finished and an
 * AsyncResource; here the body is read as the JSON reader reads one (json-reader.ts) and parsed by body-parser's
 * own steps for `extended: false`: the same count of fields against the same limit, and `qs.parse` with the same
 * options. So the value is the same for the same bytes, and so are the errors, by type. Everything else (another
 * charset, a compressed or chunked body, a length over the limit) still goes through body-parser.
 */

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;\s*charset\s*=\s*(?:utf-8|"utf-8")\s*)?$/i;

/** The declared length of a body this reader takes, or undefined when body-parser must read it. */
export function plainFormLength(req: Request, limit: number): number | undefined {
  return plainBodyLength(req, limit, "application/x-www-form-urlencoded", FORM_TYPE);
}

/** body-parser 2's parameterCount (lib/types/urlencoded.js, MIT licence): the fields, or undefined past `limit`. */
function parameterCount(body: string, limit: number): number | undefined {
  let count = 0;
  let index = -1;
  do {
    count++;
    if (count > limit) return undefined;
    index = body.indexOf("&", index + 1);
  } while (index !== -1);
  return count;
}

/** body-parser 2's parse for `extended: false` (lib/types/urlencoded.js, MIT licence), for utf-8 text. */
export function parseForm(text: string, parameterLimit: number): unknown {
  if (!text.length) return {};
  const count = parameterCount(text, parameterLimit);
  if (count === undefined) throw bodyError("too many parameters", "parameters.too.many", undefined, 413);
  try {
    return qs.parse(text, {
      allowPrototypes: true,
      arrayLimit: count,
      depth: 0,
      charset: "utf-8",
      parameterLimit,
      strictDepth: true,
    });
  } catch (error) {
    if (error instanceof RangeError)
      throw bodyError("The input exceeded the depth", "querystring.parse.rangeError");
    throw error;
  }
}
