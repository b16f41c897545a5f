import type { ProjectRegistry } from "../projects/registry.js";
import type { FeedTopic } from "./change-feed.js";

/**
 * Tells the project's watchers (the dashboard) that something of `topic` changed, so they fetch it again. The
 * stores' writes and the journal announce themselves; a module with state of its own calls this when it changes
 * (the webhooks: `announce(registry, projectId, "webhooks")` when a delivery is created or changes status). Costs
 * a map lookup when nobody watches; what is announced is told at most once per batching window.
 */
export function announce(registry: Pick<ProjectRegistry, "feed">, projectId: string, topic: FeedTopic): void {
  registry.feed.announce(projectId, topic);
}
