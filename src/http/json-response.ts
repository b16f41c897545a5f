import type { Express, Response } from "express";

const SENT_JSON = Symbol("sentJson");
type Sending = Response & { [SENT_JSON]?: string };

/** The JSON text res.json sent (or, for a HEAD request, would have sent), for the request journal. */
export function sentJson(res: Response): string | undefined {
  return (res as Sending)[SENT_JSON];
}

/**
 * res.json for every route of `app`, as Express's own but keeping the text it sends for the request journal, so
 * that the journal needs no per-request wrapper to see the answer: the body is stringified once, and sent through
 * res.send with Express's default Content-Type. The app sets no "json spaces", "json replacer" or "json escape", so
 * JSON.stringify(body) is the text Express's res.json would send. (Writing the text past res.send, the former
 * `directJson` speed trick, was dropped in 0.6.0: an 11-round paired run showed no consistent saving.)
 */
export function useJsonAnswers(app: Express): void {
  app.response.json = function json(this: Response, body: unknown): Response {
    const text = JSON.stringify(body) as string | undefined;
    (this as Sending)[SENT_JSON] = text;
    if (!this.get("Content-Type")) this.set("Content-Type", "application/json");
    return this.send(text);
  };
}
