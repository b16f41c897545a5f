import { CallFailed } from "../../clients/play/calls.js";
import type { KeyPair } from "../../clients/play/project-key.js";
import type { WEBHOOK_EVENT } from "../../domain/webhooks/types.js";
import { callServer, expectOk, listed, type ServerAnswer, type ServerTarget } from "../server-client.js";

/**
 * How `loyalty-mock trigger` causes each notification the stand-in sends: one entry per type of
 * domain/webhooks/types.ts, keyed by the same names, so a new type fails the type checker until it has a cause
 * here (and test/cli/trigger.test.ts fails until every cause is played). A cause reads the project's data from
 * the control API's views (its event schemas, earning rules, loyalty programs and referral codes) and makes the
 * public calls an application would, with the project's key pair; the last call it makes is the one whose
 * notifications it waits for.
 */
interface TriggerContext {
  target: ServerTarget;
  projectId: string;
  keys: KeyPair;
  /** The source id of the customer the calls are made for. */
  customer: string;
}

/** Why a cause cannot be played in this project: said with exit status 2. */
export class CannotCause extends Error {
  override name = "CannotCause";
}

export interface Cause {
  /** How the type is caused, in words, for --list. */
  how: string;
  /** Makes the calls; resolves to the answer of the call that causes the notification. */
  play(context: TriggerContext): Promise<ServerAnswer>;
}

type Record_ = Record<string, unknown>;

const project = (context: TriggerContext) => `/__mock/projects/${encodeURIComponent(context.projectId)}`;

/** The records of one of the project's views, as the control API lists them, filtered on its stored fields. */
async function view(context: TriggerContext, name: string, filters: Record<string, string> = {}) {
  const answer = await callServer(context.target, {
    method: "GET",
    path: `${project(context)}/${name}`,
    query: { ...filters, limit: 1000 },
  });
  return listed(expectOk(answer));
}

const text = (record: Record_, field: string) =>
  typeof record[field] === "string" ? (record[field] as string) : "";

/** Metadata an event schema accepts: a value of its type for each property it requires (docs: fixtures). */
function metadataFor(schema: Record_): Record_ {
  const properties = ((schema.schema as Record_ | undefined)?.properties ?? {}) as Record<string, Record_>;
  const metadata: Record_ = {};
  const now = new Date().toISOString();
  const SAMPLE: Record<string, unknown> = {
    string: "loyalty-mock trigger",
    number: 1,
    boolean: true,
    date: now.slice(0, 10),
    datetime: now,
    object: {},
  };
  for (const [name, definition] of Object.entries(properties)) {
    if (definition.optional === true) continue;
    const value = SAMPLE[text(definition, "type")] ?? "loyalty-mock trigger";
    metadata[name] = definition.array === true ? [value] : value;
  }
  return metadata;
}

/** A custom event by the customer, of the type `event` (a schema of the project), with what it needs. */
async function sendEvent(context: TriggerContext, event: string, extra: Record_ = {}): Promise<ServerAnswer> {
  const [schema] = await view(context, "event-schemas", { name: event });
  if (schema === undefined)
    throw new CannotCause(`project ${context.projectId} has no event schema ${event}`);
  const { customer: customerFields, ...rest } = extra;
  const answer = await callServer(context.target, {
    method: "POST",
    path: "/v1/events",
    keys: context.keys,
    json: {
      event,
      customer: { source_id: context.customer, ...(customerFields as Record_ | undefined) },
      metadata: metadataFor(schema),
      ...rest,
    },
  });
  expectOk(answer);
  return answer;
}

/** The name of any event the project defines, for the causes that need an event but not which. */
async function anyEvent(context: TriggerContext): Promise<string> {
  const [schema] = await view(context, "event-schemas");
  if (schema === undefined) throw new CannotCause(`project ${context.projectId} defines no custom event`);
  return text(schema, "name");
}

/** The customer of the context's source id as the project has it, or undefined. */
async function existing(context: TriggerContext): Promise<Record_ | undefined> {
  const [customer] = await view(context, "customers", { source_id: context.customer });
  return customer;
}

/** The customer joins a loyalty program: the first of `campaigns` that gives them a card. */
async function join(context: TriggerContext, campaigns: readonly string[]): Promise<ServerAnswer> {
  let refused: string | undefined;
  for (const campaign of campaigns) {
    const answer = await callServer(context.target, {
      method: "POST",
      path: `/v1/loyalties/${encodeURIComponent(campaign)}/members`,
      keys: context.keys,
      json: { customer: { source_id: context.customer } },
    });
    if (answer.status === 200) return answer;
    // A program with no card left, or one the customer already joined: a refusal changes nothing; the next one.
    refused = expectOkMessage(answer);
  }
  throw new CannotCause(
    campaigns.length === 0
      ? `project ${context.projectId} has no active loyalty program`
      : `no loyalty program of project ${context.projectId} gave ${context.customer} a card (${refused})`,
  );
}

function expectOkMessage(answer: ServerAnswer): string {
  try {
    expectOk(answer);
    return "";
  } catch (error) {
    if (error instanceof CallFailed) return error.message;
    throw error;
  }
}

async function loyaltyPrograms(context: TriggerContext): Promise<string[]> {
  const programs = await view(context, "campaigns", { campaign_type: "LOYALTY_PROGRAM", active: "true" });
  return programs.map((campaign) => text(campaign, "id"));
}

const newCustomer: Cause = {
  how: "a custom event (POST /v1/events) by a customer the project does not have yet",
  async play(context) {
    if (await existing(context))
      throw new CannotCause(
        `customer.created needs a customer the project does not have, and it has ${context.customer}; leave out --customer`,
      );
    return sendEvent(context, await anyEvent(context));
  },
};

const updatedCustomer: Cause = {
  how: "a custom event by a customer the project has, changing their metadata (a new customer is made by an event first)",
  async play(context) {
    const event = await anyEvent(context);
    if (!(await existing(context))) await sendEvent(context, event);
    return sendEvent(context, event, {
      customer: { metadata: { loyalty_mock_trigger: new Date().toISOString() } },
    });
  },
};

const joined: Cause = {
  how: "the customer joins a loyalty program (POST /v1/loyalties/{campaignId}/members), the first that gives a card",
  async play(context) {
    return join(context, await loyaltyPrograms(context));
  },
};

const customEvent: Cause = {
  how: "a custom event (POST /v1/events) of the first type the project's event schemas define",
  async play(context) {
    return sendEvent(context, await anyEvent(context));
  },
};

/**
 * An active earning rule pays the customer's card: they join the rule's program first when they hold no card of
 * it, then send the rule's event.
 */
const earned: Cause = {
  how: "a custom event an active earning rule pays, by a member of its program (the customer joins it first when not one)",
  async play(context) {
    const rules = (await view(context, "earning-rules")).filter((rule) => rule.status === "ACTIVE");
    let why = `project ${context.projectId} has no active earning rule`;
    for (const rule of rules) {
      const campaign = text(rule, "campaign_id");
      const customer = await existing(context);
      const cards =
        customer === undefined
          ? []
          : await view(context, "vouchers", { campaign_id: campaign, holder_id: text(customer, "id") });
      try {
        if (!cards.some((card) => card.type === "LOYALTY_CARD")) await join(context, [campaign]);
        return await sendEvent(context, text(rule, "event"));
      } catch (error) {
        if (!(error instanceof CannotCause)) throw error;
        why = error.message;
      }
    }
    throw new CannotCause(why);
  },
};

/** A custom event naming a referral code that someone holds: its holder is the referrer, rewarded. */
const referred: Cause = {
  how: "a custom event naming a referral code a customer holds (referral.code): the holder is rewarded",
  async play(context) {
    const programs = await view(context, "campaigns", { campaign_type: "REFERRAL_PROGRAM" });
    for (const program of programs) {
      const codes = await view(context, "vouchers", { campaign_id: text(program, "id") });
      const held = codes.find((card) => card.is_referral_code === true && text(card, "holder_id") !== "");
      if (held !== undefined)
        return sendEvent(context, await anyEvent(context), { referral: { code: text(held, "code") } });
    }
    throw new CannotCause(`project ${context.projectId} has no referral code that a customer holds`);
  },
};

export const CAUSES: { readonly [K in keyof typeof WEBHOOK_EVENT]: Cause } = {
  customerCreated: newCustomer,
  customerUpdated: updatedCustomer,
  publicationSucceeded: joined,
  customerPublicationSucceeded: joined,
  voucherPublished: joined,
  customCustomerEvent: customEvent,
  loyaltyTransactionCreated: earned,
  voucherPointsAdded: earned,
  customerVoucherPointsAdded: earned,
  customerRewardedLoyaltyPoints: earned,
  customerRewarded: referred,
};
