import type { Request, Response } from "express";
import type { JournalEntry } from "../../domain/journal/journal.js";
import { redactBody, redactHeaders } from "../../domain/journal/redact.js";
import type { Project } from "../../domain/projects/project.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { hasBody } from "../body.js";
import { requestIdOf } from "../context.js";

/**
 * The most of a body the journal keeps: the raw text of an unparsed body is cut here, and a body (or answer)
 * larger than this is kept as its first bytes (or a note) rather than whole, so a full journal costs at most
 * JOURNAL_SIZE times this much per project rather than JOURNAL_SIZE times the body limit.
 */
export const RAW_BODY_LIMIT = 64 * 1024;

/** What the traffic middleware learns after the entry began: which fault hit the request, whether it was limited. */
export interface EntryNotes {
  fault: JournalEntry["fault"];
  rateLimited: boolean;
}

/**
 * Copies the bytes of the request body as whoever reads it (the operation's body parser) reads them, without
 * reading anything itself: the operation still decides whether and how the body is parsed.
 */
function tapBody(req: Request): { text: () => string | undefined; bytes: () => number } {
  if (!hasBody(req)) return { text: () => undefined, bytes: () => 0 };
  const chunks: Buffer[] = [];
  let size = 0;
  let total = 0;
  const emit = req.emit;
  req.emit = function tapped(this: Request, event: string | symbol, ...args: unknown[]): boolean {
    const chunk = args[0];
    if (event === "data" && (typeof chunk === "string" || Buffer.isBuffer(chunk))) {
      total += chunk.length;
      if (size < RAW_BODY_LIMIT) {
        const bytes = Buffer.from(chunk);
        chunks.push(bytes);
        size += bytes.length;
      }
    }
    return emit.call(this, event, ...args);
  } as Request["emit"];
  return {
    text: () => (size === 0 ? undefined : Buffer.concat(chunks).subarray(0, RAW_BODY_LIMIT).toString("utf8")),
    bytes: () => total,
  };
}

/** The answer's body as the journal keeps it: whole when small enough, else a note of its size. */
function keptResponse(res: Response, body: unknown): unknown {
  const length = Number(res.getHeader("content-length") ?? 0);
  if (length <= RAW_BODY_LIMIT) return redactBody(body);
  return `[${length} bytes, not kept: larger than the journal's ${RAW_BODY_LIMIT}-byte limit]`;
}

/**
 * Starts the journal entry of a request and writes it once the exchange is over (answered, or the connection
 * closed without an answer). The body is the one the operation parsed, or the raw text when it could not parse it.
 */
export function journalRequest(
  registry: ProjectRegistry,
  project: Project,
  verified: boolean,
  req: Request,
  res: Response,
): EntryNotes {
  const started = performance.now();
  const time = project.clock.iso();
  const path = req.originalUrl.split("?")[0] ?? req.path;
  const query = { ...(req.query as Record<string, unknown>) };
  const headers = redactHeaders(req.headers);
  const rawBody = tapBody(req);
  let responseBody: unknown = null;
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    responseBody = body;
    return json(body);
  };
  const notes: EntryNotes = { fault: null, rateLimited: false };
  res.once("close", () => {
    const whole = rawBody.bytes() <= RAW_BODY_LIMIT;
    const body: unknown = req.body !== undefined && whole ? req.body : (rawBody.text() ?? null);
    project.journal.record(
      {
        request_id: requestIdOf(req),
        time,
        method: req.method,
        path,
        query,
        headers,
        body: redactBody(body),
        status: res.headersSent ? res.statusCode : null,
        response_body: res.headersSent ? keptResponse(res, responseBody) : null,
        duration_ms: Math.round(performance.now() - started),
        authenticated: verified,
        fault: notes.fault,
        rate_limited: notes.rateLimited,
      },
      project.effectiveSettings(registry.defaults).journalSize,
    );
  });
  return notes;
}
