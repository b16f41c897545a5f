// @ts-check
import { authHeaders, projectPath } from "./api.js";

/**
 * @typedef {{ method: string, path: string, status: number | null, operation: string | null, time_ms: number }} RequestSummary
 * @typedef {{ topics: string[], collections: string[], requests: RequestSummary[], requests_count: number }} FeedBatch
 */

/**
 * Reads the project's live feed (server-sent events) with fetch() and a stream reader rather than EventSource,
 * which cannot send the admin token's header. Reconnects after a pause when the stream ends or fails.
 * @param {string} projectId
 * @param {{ batch: (batch: FeedBatch) => void, state: (state: "live" | "reconnecting" | "refused", detail?: string) => void }} on
 */
export function openFeed(projectId, on) {
  let closed = false;
  let controller = new AbortController();
  const run = async () => {
    while (!closed) {
      controller = new AbortController();
      try {
        const response = await fetch(projectPath(projectId, "feed"), {
          headers: { Accept: "text/event-stream", ...authHeaders() },
          signal: controller.signal,
        });
        if (!response.ok || !response.body) {
          on.state("refused", `the feed answered ${response.status}`);
        } else {
          await read(response.body, on);
          if (!closed) on.state("reconnecting", "the feed ended");
        }
      } catch (error) {
        if (!closed) on.state("reconnecting", String(error));
      }
      if (!closed) await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  run();
  return {
    close() {
      closed = true;
      controller.abort();
    },
  };
}

/**
 * @param {ReadableStream<Uint8Array>} body
 * @param {Parameters<typeof openFeed>[1]} on
 */
async function read(body, on) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      dispatch(buffer.slice(0, end), on);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
    }
  }
}

/**
 * @param {string} block one event of the stream
 * @param {Parameters<typeof openFeed>[1]} on
 */
function dispatch(block, on) {
  let event = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) event = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
  }
  if (event === "ready") on.state("live");
  else if (event === "change") on.batch(JSON.parse(data.join("\n")));
}
