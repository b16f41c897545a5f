import type { Express, Response } from "express";
import { stringifyExact } from "../platform/exact-json.js";

const SENT_JSON = Symbol("sentJson");
type Sending = Response & { [SENT_JSON]?: string };

/** The JSON text res.json sent (or, for a HEAD request, would have sent), for the request journal. */
export function sentJson(res: Response): string | undefined {
  return (res as Sending)[SENT_JSON];
}

/**
 * res.json for every route of `app`, as Express's own but keeping the text it sends for the request journal, so
 * that the journal needs no per-request wrapper to see the answer: the body is stringified once. The app sets no
 * "json spaces", "json replacer" or "json escape", so JSON.stringify(body) is the text Express's res.json would send;
 * stringifyExact is that, and writes the bigints of 64-bit fields past 2^53 as their digits.
 *
 * The common answer (no Content-Type set yet, a status with a body, not HEAD, no ETag asked for, no
 * Transfer-Encoding) is sent as res.send would send it, with the same headers: `application/json; charset=utf-8`
 * and the text's byte length, without res.send's parse and format of the Content-Type and, for a text over 1,000
 * characters, its copy into a Buffer (the text is joined to the head as one string instead). Anything else goes
 * through res.send.
 */
export function useJsonAnswers(app: Express): void {
  app.response.json = function json(this: Response, body: unknown): Response {
    const text = stringifyExact(body) as string | undefined;
    (this as Sending)[SENT_JSON] = text;
    if (
      text === undefined ||
      this.getHeader("Content-Type") !== undefined ||
      this.getHeader("Transfer-Encoding") !== undefined ||
      this.getHeader("ETag") !== undefined ||
      NO_BODY_STATUSES.has(this.statusCode) ||
      this.req.method === "HEAD" ||
      typeof this.app.get("etag fn") === "function" ||
      this.req.fresh
    ) {
      if (!this.get("Content-Type")) this.set("Content-Type", "application/json");
      return this.send(text);
    }
    this.setHeader("Content-Type", "application/json; charset=utf-8");
    this.setHeader("Content-Length", String(Buffer.byteLength(text, "utf8")));
    this.end(text, "utf8");
    return this;
  };
}

/** Statuses res.send strips the body (and its headers) from, or answers without one. */
const NO_BODY_STATUSES = new Set([204, 205, 304]);
