import type { RequestHandler } from "express";
import { z } from "zod";
import type { FeedBatch } from "../../emulation/change-feed.js";
import { stringifyExact } from "../../platform/exact-json.js";
import type { ControlDeps } from "./deps.js";
import { type ControlRoute, row } from "./route-table.js";

/** A comment line now and then, so proxies and the client see the stream alive while nothing happens. */
const HEARTBEAT_MS = 15_000;

/** One batch goes to every page watching its project: written once as an event, whatever their number. */
const written = new WeakMap<FeedBatch, string>();

function eventOf(batch: FeedBatch): string {
  let text = written.get(batch);
  if (text === undefined) {
    text = `event: change\ndata: ${stringifyExact(batch)}\n\n`;
    written.set(batch, text);
  }
  return text;
}

/**
 * GET /__mock/projects/{projectId}/feed: server-sent events telling what changed in the project (see
 * emulation/change-feed.ts), for the dashboard. Behind the admin token like every control call; the page reads
 * it with fetch() and a stream reader, as EventSource cannot send the token's header and a token in the URL would
 * end up in logs and history. One JSON text per batch, whatever the number of requests in it.
 */
export const feedRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: "/projects/{projectId}/feed",
    tag: "feed",
    summary: "What changes in the project, live (server-sent events)",
    description:
      "A text/event-stream: `ready` once, then `change` events whose data is a FeedBatch (topics, collections " +
      "written, a summary of the newest journal entries; components/schemas/FeedBatch), at most one per " +
      "batching window (100 ms). The dashboard at /__mock/ui/ reads it with fetch() so that the admin token " +
      "travels in its header.",
    stream: "text/event-stream",
    output: z.string(),
    outputDescription: "The stream; it stays open until the client or the server closes it",
    handle: ({ deps, req, res, project }) => {
      res.writeHead(200, {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
      });
      res.write(`retry: 2000\nevent: ready\ndata: ${JSON.stringify({ project_id: project.id })}\n\n`);
      if (req.method === "HEAD") return void res.end();
      const stop = deps.registry.feed.subscribe(
        project.id,
        (batch: FeedBatch) => res.write(eventOf(batch)),
        () => res.end(),
      );
      const heartbeat = setInterval(() => res.write(": ping\n\n"), HEARTBEAT_MS);
      heartbeat.unref();
      res.once("close", () => {
        clearInterval(heartbeat);
        stop();
      });
    },
  }),
];

/** A control route's segment after the project id, as the feed's topic: `clock`, `faults`, `settings`, ... */
const PROJECT_PATH = /^\/projects\/([^/]+)(?:\/([^/]+))?/;

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Announces every successful control call that changed a project, under the name of what it changed (the
 * segment after the project id), so routes added later (the webhooks) are announced without knowing the feed.
 * Only control calls pass here: the emulated operations announce through their stores and the journal.
 */
export function announceControlChanges(deps: ControlDeps): RequestHandler {
  const { feed } = deps.registry;
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const match = PROJECT_PATH.exec(req.path);
    const projectId = match?.[1] === undefined ? undefined : decoded(match[1]);
    if (projectId !== undefined && feed.watched(projectId)) {
      const topic = match?.[2] ?? "project";
      res.once("finish", () => {
        if (res.statusCode < 400) feed.announce(projectId, topic);
      });
    }
    next();
  };
}
