import type { Response } from "express";

/** Statuses whose answers Express strips or rewrites; they keep Express's res.send. */
const BODYLESS = new Set([204, 205, 304]);

/**
 * Sends the JSON text of res.json straight to the response, as Express's res.send would send it, and says whether
 * it did. res.send looks up and rewrites the Content-Type with a charset, considers an ETag (disabled in this app)
 * and checks freshness (never fresh here) on every answer; here the two headers it would set are set directly.
 * Anything unusual (a Content-Type or Transfer-Encoding set beforehand, a bodiless status) is left to res.send.
 */
export function sendJsonDirectly(res: Response, text: string): boolean {
  if (
    BODYLESS.has(res.statusCode) ||
    res.getHeader("content-type") !== undefined ||
    res.getHeader("transfer-encoding") !== undefined
  )
    return false;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  // Node sends no body in answer to HEAD, and keeps the Content-Length, as Express does.
  res.end(text);
  return true;
}
