import type { Project } from "../../../domain/projects/project.js";
import { addInt64, type Int64 } from "../../../domain/shared/int64.js";
import type { OperationName } from "../../operations/table.js";
import { extrasFor, HIDDEN_FROM_AUDIENCE } from "./activity-extras.js";
import { wordsOf } from "./words.js";

/**
 * The request journal told as a story: each operation a sentence naming people and things by name ("Alice Nowak
 * earned 100 points for user_subscribed"), failures said plainly with the service's own message. Names are read
 * from the project as it is now, so a customer a request created is named even though the request only knew her
 * source id.
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

const decode = (segment: string | undefined) => {
  try {
    return decodeURIComponent(segment ?? "");
  } catch {
    return segment ?? "";
  }
};

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

function earnedBy(project: Project, entry: JournalEntry, customerRef: Json, type: string, earned: EarnedBy) {
  const sourceId = typeof customerRef.source_id === "string" ? customerRef.source_id : undefined;
  const customer =
    (typeof customerRef.id === "string" ? project.customers.find(customerRef.id) : undefined) ??
    (sourceId !== undefined ? project.customers.findBySourceId(sourceId) : undefined);
  return customer ? earned(project, customer.id, type, Date.parse(entry.time)) : 0;
}

function eventSentence(project: Project, entry: JournalEntry, ok: boolean, earned: EarnedBy) {
  const body = asObject(entry.body);
  const ref = asObject(body.customer);
  const who = customerName(project, ref);
  const type = String(body.event ?? "an event");
  const said = wordsOf(type);
  if (!ok) return { ok, text: `${who}'s ${said} was refused: ${refusal(entry)}` };
  const points = earnedBy(project, entry, ref, type, earned);
  return {
    ok,
    text:
      points > 0 ? `${who} earned ${points.toLocaleString("en")} points for ${said}` : `${who} sent ${said}`,
  };
}

/** One journal entry as a sentence, and whether it succeeded. */
export function sentenceOf(
  project: Project,
  entry: JournalEntry,
  earned: EarnedBy = earnedNearest,
): { ok: boolean; text: string } {
  const ok = entry.status !== null && entry.status < 400;
  const body = asObject(entry.body);
  const answer = asObject(entry.response_body);
  // The entry names its operation (the row that handled it); only the row's path parameters are read from the URL.
  const segments = entry.path.split("/");
  const campaignName = (id: string) => project.campaigns.find(id)?.name ?? id;
  switch (entry.operation as OperationName | null) {
    case "generateToken":
      return ok
        ? { ok, text: `The app got an access token (scope ${String(answer.scope ?? body.scope ?? "")})` }
        : { ok, text: `A token request was refused: ${refusal(entry)}` };
    case "getLocation": {
      const id = decode(segments[3]);
      const location = project.locations.find(id);
      return ok
        ? { ok, text: `The app looked up the location ${location?.name ?? id}` }
        : { ok, text: `Looking up the location ${id} failed: ${refusal(entry)}` };
    }
    case "addMember": {
      const who = customerName(project, asObject(body.customer));
      const program = campaignName(decode(segments[3]));
      return ok
        ? { ok, text: `${who} joined ${program} with card ${String(answer.code ?? "")}` }
        : { ok, text: `${who} could not join ${program}: ${refusal(entry)}` };
    }
    case "trackEvent":
      return eventSentence(project, entry, ok, earned);
    case "createTier": {
      const structureId = decode(segments[4]);
      const structure = project.tierStructures.find(structureId)?.name ?? structureId;
      const name = String(body.name ?? answer.name ?? "A tier");
      return ok
        ? { ok, text: `Tier ${name} was created in ${structure}` }
        : { ok, text: `Creating tier ${name} in ${structure} failed: ${refusal(entry)}` };
    }
    case "deleteIncentive": {
      const id = decode(segments[4]);
      const name = project.incentives.find(id)?.name ?? id;
      return ok
        ? { ok, text: `Incentive ${name} was deleted` }
        : { ok, text: `Deleting incentive ${name} failed: ${refusal(entry)}` };
    }
  }
  return ok
    ? { ok, text: `${entry.method} ${entry.path} answered ${entry.status}` }
    : { ok, text: `${entry.method} ${entry.path} failed: ${refusal(entry)}` };
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
