import type { Project } from "../../../domain/projects/project.js";
import type { OperationName } from "../../operations/table.js";
import { audienceStructures } from "./audience.js";
import { reachedSentences, tiersReachedBy } from "./moments.js";
import { deliveriesByRequest, groupOf, type WebhookGroup } from "./webhook-groups.js";

type JournalEntry = ReturnType<Project["journal"]["list"]>[number];

/**
 * Operations the activity leaves out: the app's token requests, which an audience reads as noise (a play makes
 * one after each clock move). The data view's journal keeps them.
 */
export const HIDDEN_FROM_AUDIENCE: readonly OperationName[] = ["generateToken"];

/** What the activity tells under a request's sentence: the tiers it took someone into, the webhooks it caused. */
export interface Extras {
  moments: string[];
  webhooks: WebhookGroup | null;
}

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/**
 * For one activity answer: the outbox grouped by request once (a bounded ring) and the audience's structures
 * once, then each entry's extras from them. A recorded event's moments come from the event the customer's events
 * of that type put nearest the request (the figures' binary search, as its points do).
 */
export function extrasFor(project: Project): (entry: JournalEntry) => Extras {
  const structures = audienceStructures(project);
  const groups = deliveriesByRequest(project);
  return (entry) => {
    const deliveries = groups.get(entry.request_id);
    return {
      moments: momentsOf(project, entry, structures),
      webhooks: deliveries === undefined ? null : groupOf(deliveries),
    };
  };
}

function momentsOf(project: Project, entry: JournalEntry, structures: ReturnType<typeof audienceStructures>) {
  if (entry.operation !== "trackEvent" || entry.status === null || entry.status >= 400) return [];
  const customerId = asObject(asObject(entry.response_body).customer).id;
  const type = asObject(entry.body).event;
  if (typeof customerId !== "string" || typeof type !== "string") return [];
  const event = project.figures.nearestEvent(customerId, type, Date.parse(entry.time));
  if (event === undefined) return [];
  const customer = project.customers.find(customerId);
  const who = customer?.name ?? customer?.source_id ?? customerId;
  return reachedSentences(who, tiersReachedBy(event, structures), structures.length);
}
