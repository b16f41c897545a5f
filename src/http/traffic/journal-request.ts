import type { Request, Response } from "express";
import type { Project } from "../../domain/projects/project.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import type { JournalEntry, JournalRecord } from "../../emulation/journal/journal.js";
import { parseExact } from "../../platform/exact-json.js";
import { operationOf, requestIdOf } from "../context.js";
import { recordExchange } from "../fast/index.js";
import { hasBody } from "../input/body.js";
import { sentJson } from "../json-response.js";
import { operationAt } from "../operations/table.js";
import { redactBody, redactHeaders } from "./redact.js";

/**
 * The most of a body the journal keeps: the raw text of an unparsed body is cut here, and a body (or answer)
 * larger than this is kept as its first bytes (or a note) rather than whole, so a full journal costs at most
 * JOURNAL_SIZE times this much per project rather than JOURNAL_SIZE times the body limit.
 */
const RAW_BODY_LIMIT = 64 * 1024;

/** What the traffic middleware learns after the entry began: which fault hit the request, whether it was limited. */
export interface EntryNotes {
  fault: JournalEntry["fault"];
  rateLimited: boolean;
}

/**
 * Keeps the chunks of the request body as whoever reads it (the operation's body parser, or Node discarding an
 * unread body) reads them, without reading anything itself. Chunks are kept, not copied: Node hands every reader
 * a buffer of its own, which nobody writes to afterwards.
 */
interface Tapped {
  text: () => string | undefined;
  bytes: () => number;
}

const NO_BODY: Tapped = { text: () => undefined, bytes: () => 0 };

function tapBody(req: Request): Tapped {
  if (!hasBody(req)) return NO_BODY;
  const chunks: Buffer[] = [];
  let size = 0;
  let total = 0;
  const emit = req.emit;
  // `arguments` rather than rest parameters: every event the request emits passes through here, and an array per
  // call is garbage the collector then has to sweep.
  req.emit = function tapped(this: Request, event: string | symbol, chunk?: unknown): boolean {
    if (event === "data" && (typeof chunk === "string" || Buffer.isBuffer(chunk))) {
      total += chunk.length;
      if (size < RAW_BODY_LIMIT) {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
        chunks.push(bytes);
        size += bytes.length;
      }
    }
    // biome-ignore lint/complexity/noArguments: forwards every argument without allocating an array for them
    return emit.apply(this, arguments as unknown as Parameters<Request["emit"]>);
  } as Request["emit"];
  return {
    text: () => (size === 0 ? undefined : Buffer.concat(chunks).subarray(0, RAW_BODY_LIMIT).toString("utf8")),
    bytes: () => total,
  };
}

/** The path without the query string. */
export function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * A JSON text sent as an answer, as the journal shows it: parsed again (integers past 2^53 exactly, as sent),
 * secrets replaced; an answer larger than the journal keeps is only noted, with its size.
 */
function answerOf(text: string | undefined, length: number): unknown {
  if (length > RAW_BODY_LIMIT)
    return `[${length} bytes, not kept: larger than the journal's ${RAW_BODY_LIMIT}-byte limit]`;
  return text === undefined ? null : redactBody(parseExact(text));
}

/**
 * Everything a journal entry is made of, in one object that is also the journal's record of it: the request as it
 * arrived, and how the exchange ended. One object rather than several, as a full journal keeps a thousand of them
 * per project: each object kept is one more the young-generation collector copies before it is promoted (issue
 * 26). Its fields never change; `entry()` builds a new entry, secrets redacted, on every call.
 */
class Exchange implements JournalRecord {
  constructor(
    readonly requestId: string,
    readonly timeMs: number,
    readonly method: string,
    readonly path: string,
    /** The row's own name (a constant of the operation table), or null. */
    readonly operation: string | null,
    readonly query: Record<string, unknown> | undefined,
    readonly headers: Request["headers"],
    readonly verified: boolean,
    readonly status: number | null,
    readonly body: unknown,
    readonly answer: string | undefined,
    /** The answer's Content-Length. */
    readonly answerLength: number,
    readonly durationMs: number,
    readonly fault: JournalEntry["fault"],
    readonly rateLimited: boolean,
  ) {}

  entry(): JournalEntry {
    return {
      request_id: this.requestId,
      time: new Date(this.timeMs).toISOString(),
      method: this.method,
      path: this.path,
      operation: this.operation,
      query: { ...this.query },
      headers: redactHeaders(this.headers),
      body: redactBody(this.body),
      status: this.status,
      response_body: this.status === null ? null : answerOf(this.answer, this.answerLength),
      duration_ms: this.durationMs,
      authenticated: this.verified,
      fault: this.fault === null ? null : { ...this.fault },
      rate_limited: this.rateLimited,
    };
  }
}

/** An exchange in progress: what is known when the request arrives, and the notes the traffic step adds. */
class OpenExchange implements EntryNotes {
  fault: JournalEntry["fault"] = null;
  rateLimited = false;
  readonly clockStart = performance.now();

  constructor(
    readonly registry: ProjectRegistry,
    readonly project: Project,
    readonly verified: boolean,
    readonly req: Request,
    readonly timeMs: number,
    readonly rawBody: Tapped,
  ) {}
}

const OPEN = Symbol("journaled exchange");
type Journaled = Response & { [OPEN]?: OpenExchange };

/**
 * The response's "close" listener (once per response), one function for every request: it finds its exchange on
 * the response, so no closure is made per request.
 */
function closeExchange(this: Journaled): void {
  const open = this[OPEN];
  if (open === undefined) return;
  this[OPEN] = undefined;
  const { req, project, registry, rawBody } = open;
  const answered = this.headersSent;
  const answerLength = answered ? Number(this.getHeader("content-length") ?? 0) : 0;
  const whole = rawBody.bytes() <= RAW_BODY_LIMIT;
  const url = req.originalUrl;
  const status = answered ? this.statusCode : null;
  const exchange = new Exchange(
    requestIdOf(req),
    open.timeMs,
    req.method,
    project.journal.shared(pathOf(url), "path") as string,
    // A request a fault rule or the rate limit answered never reached its route, which names it: named by its path.
    operationOf(this) ?? operationAt(req.method, pathOf(url))?.name ?? null,
    // Express parses the query string on every read of req.query; most requests have none.
    url.includes("?") ? { ...(req.query as Record<string, unknown>) } : undefined,
    project.journal.sharedHeaders(req.headers),
    open.verified,
    status,
    req.body !== undefined && whole ? redactBody(req.body) : (rawBody.text() ?? null),
    answered && answerLength <= RAW_BODY_LIMIT ? project.journal.shared(sentJson(this), "answer") : undefined,
    answerLength,
    Math.round(performance.now() - open.clockStart),
    open.fault,
    open.rateLimited,
  );
  const capacity = project.effectiveSettings(registry.defaults).journalSize;
  recordExchange(req.app, project.journal, capacity, exchange);
}

/**
 * Starts the journal entry of a request and records it once the exchange is over (answered, or the connection
 * closed without an answer). The body is the one the operation parsed, or the raw text when it could not parse it.
 *
 * The request's headers object (which nobody changes), its path and the JSON text of the answer are kept as they
 * are (each equal to the journal's last kept one is kept as that one), and a parsed body, which an operation might
 * hand on, is copied (and redacted) when the exchange ends; the entry is put together from these
 * (`Exchange.entry`) then, or, with the lazy-journal speed trick (http/fast), when the journal is read.
 */
export function journalRequest(
  registry: ProjectRegistry,
  project: Project,
  verified: boolean,
  req: Request,
  res: Response,
): EntryNotes {
  // The method, path and query are read when the exchange ends: routing never changes originalUrl or method.
  const open = new OpenExchange(registry, project, verified, req, project.clock.now(), tapBody(req));
  (res as Journaled)[OPEN] = open;
  res.on("close", closeExchange);
  return open;
}
