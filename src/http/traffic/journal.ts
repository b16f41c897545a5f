import type { Request, Response } from "express";
import type { JournalEntry, JournalRecord } from "../../domain/journal/journal.js";
import type { Project } from "../../domain/projects/project.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { hasBody } from "../body.js";
import { requestIdOf } from "../context.js";
import { sentJson } from "../json-response.js";
import { redactBody, redactHeaders } from "./redact.js";

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
function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * A JSON text sent as an answer, as the journal shows it: parsed again, secrets replaced; an answer larger than the
 * journal keeps is only noted, with its size.
 */
function answerOf(text: string | undefined, length: number): unknown {
  if (length > RAW_BODY_LIMIT)
    return `[${length} bytes, not kept: larger than the journal's ${RAW_BODY_LIMIT}-byte limit]`;
  return text === undefined ? null : redactBody(JSON.parse(text));
}

/** What an exchange leaves for its journal entry, measured when it ended. */
interface Outcome {
  status: number | null;
  body: unknown;
  answer: string | undefined;
  /** The answer's Content-Length. */
  answerLength: number;
  durationMs: number;
  fault: JournalEntry["fault"];
  rateLimited: boolean;
}

/**
 * One journaled exchange: the materials of its entry, and the entry built from them when the journal is read.
 * A class of its own rather than a closure inside journalRequest, whose scope holds the request and the response:
 * a closure there would keep them (and their socket's buffers) alive for as long as the entry stays in the ring.
 */
class JournaledExchange implements JournalRecord {
  readonly #requestId: string;
  readonly #query: Record<string, unknown> | undefined;
  readonly #headers: Request["headers"];
  readonly #verified: boolean;
  readonly #outcome: Outcome;
  readonly timeMs: number;
  readonly method: string;
  readonly path: string;
  readonly status: number | null;

  constructor(started: Started, verified: boolean, outcome: Outcome) {
    this.#requestId = started.requestId;
    this.#query = started.query;
    this.#headers = started.headers;
    this.#verified = verified;
    this.#outcome = outcome;
    this.timeMs = started.timeMs;
    this.method = started.method;
    this.path = started.path;
    this.status = outcome.status;
  }

  entry(): JournalEntry {
    const outcome = this.#outcome;
    return {
      request_id: this.#requestId,
      time: new Date(this.timeMs).toISOString(),
      method: this.method,
      path: this.path,
      query: { ...this.#query },
      headers: redactHeaders(this.#headers),
      // Copies for every reader, so that no reader can change what the next one sees.
      body: redactBody(outcome.body),
      status: this.status,
      response_body: this.status === null ? null : answerOf(outcome.answer, outcome.answerLength),
      duration_ms: outcome.durationMs,
      authenticated: this.#verified,
      fault: outcome.fault === null ? null : { ...outcome.fault },
      rate_limited: outcome.rateLimited,
    };
  }
}

/** What is known of a request when it arrives. */
interface Started {
  requestId: string;
  timeMs: number;
  method: string;
  path: string;
  query: Record<string, unknown> | undefined;
  headers: Request["headers"];
}

/**
 * Starts the journal entry of a request and records it once the exchange is over (answered, or the connection
 * closed without an answer). The body is the one the operation parsed, or the raw text when it could not parse it.
 *
 * Per request only what cannot wait is done: the request's headers object (which nobody changes) and the JSON
 * text of the answer are kept as they are, and a parsed body, which an operation might hand on, is copied (and
 * redacted) when the exchange ends. The entry is put together, and headers and answer redacted, when the journal
 * is read.
 */
export function journalRequest(
  registry: ProjectRegistry,
  project: Project,
  verified: boolean,
  req: Request,
  res: Response,
): EntryNotes {
  const clockStart = performance.now();
  const url = req.originalUrl;
  const started: Started = {
    requestId: requestIdOf(req),
    timeMs: project.clock.now(),
    method: req.method,
    path: pathOf(url),
    // Express parses the query string on every read of req.query; most requests have none.
    query: url.includes("?") ? { ...(req.query as Record<string, unknown>) } : undefined,
    headers: req.headers,
  };
  const rawBody = tapBody(req);
  const notes: EntryNotes = { fault: null, rateLimited: false };
  // "close" comes once per response; `on` spares the wrapper `once` makes on every request.
  res.on("close", () => {
    const answered = res.headersSent;
    const answerLength = answered ? Number(res.getHeader("content-length") ?? 0) : 0;
    const whole = rawBody.bytes() <= RAW_BODY_LIMIT;
    const outcome: Outcome = {
      status: answered ? res.statusCode : null,
      body: req.body !== undefined && whole ? redactBody(req.body) : (rawBody.text() ?? null),
      answer: answered && answerLength <= RAW_BODY_LIMIT ? sentJson(res) : undefined,
      answerLength,
      durationMs: Math.round(performance.now() - clockStart),
      fault: notes.fault,
      rateLimited: notes.rateLimited,
    };
    project.journal.recordLazily(
      new JournaledExchange(started, verified, outcome),
      project.effectiveSettings(registry.defaults).journalSize,
    );
  });
  return notes;
}
