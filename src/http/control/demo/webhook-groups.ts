import type { Project } from "../../../domain/projects/project.js";
import type { DeliveryBrief } from "../../../domain/webhooks/outbox.js";
import { wordsOf } from "./words.js";

/**
 * Webhook deliveries told as one line under what caused them (a customer joining sends four notifications), and
 * opened for each: a timeline of a customer's month was three quarters deliveries, one line each.
 */
export interface WebhookGroup {
  /** "4 webhooks recorded (no endpoint)", "3 webhooks: 2 delivered, 1 failed". */
  summary: string;
  /** One line a delivery, in the order they were made: "customer created: delivered". */
  lines: string[];
}

const STATUS_WORDS: Record<DeliveryBrief["status"], string> = {
  not_sent: "recorded (no endpoint)",
  pending: "waiting to be sent",
  delivered: "delivered",
  failed: "failed",
};

/** The outbox's deliveries by the request that caused them, oldest first in each. The outbox is a bounded ring. */
export function deliveriesByRequest(project: Project): Map<string, DeliveryBrief[]> {
  const groups = new Map<string, DeliveryBrief[]>();
  for (const brief of project.outbox.briefs()) {
    const group = groups.get(brief.request_id);
    if (group === undefined) groups.set(brief.request_id, [brief]);
    else group.push(brief);
  }
  return groups;
}

export function groupOf(deliveries: readonly Pick<DeliveryBrief, "type" | "status">[]): WebhookGroup {
  const n = deliveries.length;
  const counts = new Map<string, number>();
  for (const { status } of deliveries) counts.set(status, (counts.get(status) ?? 0) + 1);
  const noun = `${n} webhook${n === 1 ? "" : "s"}`;
  const [only] = counts.keys();
  const summary =
    counts.size === 1 && only !== undefined
      ? `${noun} ${STATUS_WORDS[only as DeliveryBrief["status"]]}`
      : `${noun}: ${[...counts].map(([status, count]) => `${count} ${STATUS_WORDS[status as DeliveryBrief["status"]]}`).join(", ")}`;
  return {
    summary,
    lines: deliveries.map(({ type, status }) => `${wordsOf(type)}: ${STATUS_WORDS[status]}`),
  };
}
