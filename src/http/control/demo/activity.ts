import type { Project } from "../../../domain/projects/project.js";
import { addInt64, type Int64 } from "../../../domain/shared/int64.js";
import { operationNamed } from "../../operations/table.js";
import { paramsIn } from "../../route.js";
import { extrasFor, HIDDEN_FROM_AUDIENCE } from "./activity-extras.js";
import { wordsOf } from "./words.js";

/**
 * The request journal told as a story: each call a sentence naming people and things by name ("Alice Nowak earned
 * 100 points for user_subscribed"), failures said plainly with the service's own message. Each operation's
 * sentence is its row's (http/operations/table.ts); this module reads the entry back for it.
 */

type JournalEntry = ReturnType<Project["journal"]["list"]>[number];
type Json = Record<string, unknown>;

const asObject = (value: unknown): Json =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};

function customerName(project: Project, ref: Json): string {
  const id = typeof ref.id === "string" ? ref.id : undefined;
  const sourceId = typeof ref.source_id === "string" ? ref.source_id : undefined;
  const customer =
    (id !== undefined ? project.customers.find(id) : undefined) ??
    (sourceId !== undefined ? project.customers.findBySourceId(sourceId) : undefined);
  return (
    customer?.name ?? (typeof ref.name === "string" ? ref.name : undefined) ?? sourceId ?? id ?? "A customer"
  );
}

/** What the service said when it refused, as a reader takes it: its details, else its message. */
function refusal(entry: JournalEntry): string {
  const body = asObject(entry.response_body);
  const said = [body.details, body.message].find((part) => typeof part === "string");
  return `${entry.status ?? "no answer"}${said ? `, ${said}` : ""}`;
}

/**
 * Points a journaled event earned: those of the customer's recorded event of that type nearest `at` (ms), the first
 * in the store's order among equally near ones. A parameter so that a test can hold the index to a scan.
 */
export type EarnedBy = (project: Project, customerId: string, type: string, at: number) => Int64;

/** From the project's figures: her events of that type by time, a binary search rather than a pass over every event. */
const earnedNearest: EarnedBy = (project, customerId, type, at) => {
  const event = project.figures.nearestEvent(customerId, type, at);
  let points: Int64 = 0;
  for (const earning of event?.earned ?? []) points = addInt64(points, earning.points);
  return points;
};

function earnedBy(project: Project, entry: JournalEntry, ref: unknown, type: string, earned: EarnedBy) {
  const customerRef = asObject(ref);
  const sourceId = typeof customerRef.source_id === "string" ? customerRef.source_id : undefined;
  const customer =
    (typeof customerRef.id === "string" ? project.customers.find(customerRef.id) : undefined) ??
    (sourceId !== undefined ? project.customers.findBySourceId(sourceId) : undefined);
  return customer ? earned(project, customer.id, type, Date.parse(entry.time)) : 0;
}

/**
 * One journal entry as a sentence, and whether it succeeded: the sentence of the row that handled it (the entry
 * names it, `operation`), its path parameters read from the entry's path by the row's; a request no row's route
 * takes (an unknown path, a 405, a 501) is told by its method and path.
 */
export function sentenceOf(
  project: Project,
  entry: JournalEntry,
  earned: EarnedBy = earnedNearest,
): { ok: boolean; text: string } {
  const ok = entry.status !== null && entry.status < 400;
  const row = operationNamed(entry.operation);
  if (!row)
    return ok
      ? { ok, text: `${entry.method} ${entry.path} answered ${entry.status}` }
      : { ok, text: `${entry.method} ${entry.path} failed: ${refusal(entry)}` };
  const text = row.sentence({
    ok,
    params: paramsIn(row.path, entry.path),
    body: asObject(entry.body),
    answer: asObject(entry.response_body),
    project,
    refusal: refusal(entry),
    customer: (ref) => customerName(project, asObject(ref)),
    earned: (ref, type) => earnedBy(project, entry, ref, type, earned),
    words: wordsOf,
  });
  return { ok, text };
}

/**
 * The newest `limit` requests of the journal an audience is shown (not the token requests), as sentences, newest
 * first, each with the tiers it took someone into and the webhooks it caused (activity-extras.ts).
 */
export function activityOf(project: Project, limit: number) {
  const entries = project.journal.list({ limit, notOperations: HIDDEN_FROM_AUDIENCE }).reverse();
  const extras = extrasFor(project);
  return {
    object: "list" as const,
    data_ref: "activity",
    activity: entries.map((entry) => ({
      request_id: entry.request_id,
      time: entry.time,
      status: entry.status,
      ...sentenceOf(project, entry),
      ...extras(entry),
    })),
    total: entries.length,
  };
}
