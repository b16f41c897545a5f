import { operation, P, ref, type Schema } from "./openapi-operation.js";

/** The live feed's path: a stream of server-sent events rather than one JSON answer. */
export function feedPaths(): Record<string, Schema> {
  const base = operation("feed", {
    summary: "What changes in the project, live (server-sent events)",
    description:
      "A text/event-stream: `ready` once, then `change` events whose data is a FeedBatch (topics, collections " +
      "written, a summary of the newest journal entries), at most one per batching window (100 ms). The " +
      "dashboard at /__mock/ui/ reads it with fetch() so that the admin token travels in its header.",
    params: P,
    ok: ref("FeedBatch"),
  });
  const responses = base.responses as Record<string, Schema>;
  responses["200"] = {
    description: "The stream; it stays open until the client or the server closes it",
    content: { "text/event-stream": { schema: { type: "string" }, itemSchema: ref("FeedBatch") } },
  };
  return { "/__mock/projects/{projectId}/feed": { get: base } };
}

export const feedBatchSchema: Schema = {
  type: "object",
  required: ["topics", "collections", "requests", "requests_count"],
  properties: {
    topics: {
      type: "array",
      items: { type: "string" },
      description: "records, requests, clock, project, faults, settings, keys, webhooks, ...",
    },
    collections: {
      type: "array",
      items: { type: "string" },
      description: "Collections whose records changed",
    },
    requests: {
      type: "array",
      description: "The newest journal entries of the window (at most 20)",
      items: {
        type: "object",
        required: ["method", "path", "status", "time_ms"],
        properties: {
          method: { type: "string" },
          path: { type: "string" },
          status: { type: ["integer", "null"] },
          time_ms: { type: "number" },
        },
      },
    },
    requests_count: { type: "integer", minimum: 0 },
  },
};
