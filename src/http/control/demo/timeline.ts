import type { Project } from "../../../domain/projects/project.js";
import type { DeliveryBrief } from "../../../domain/webhooks/outbox.js";
import { audienceStructures } from "./audience.js";
import { reachedSentences, tiersReachedBy } from "./moments.js";
import { groupOf } from "./webhook-groups.js";
import { wordsOf } from "./words.js";

type Customer = ReturnType<Project["customers"]["get"]>;
type Entry = {
  at: string;
  kind: "joined" | "event" | "points" | "tier" | "webhooks" | "customer";
  text: string;
  /** A grouped entry's lines (the webhooks one request caused), shown when it is opened. */
  details?: string[];
};

/**
 * Each delivery's envelope as JSON text, written once: an envelope never changes once built (a resend sends the
 * same one), and every story reads the whole outbox, up to WEBHOOK_OUTBOX_SIZE deliveries (1,000 by default: about
 * 10 ms of JSON.stringify on each call). Weak, so a delivery the outbox drops takes its text along.
 */
const envelopeTexts = new WeakMap<object, string>();

function textOf(envelope: object): string {
  let text = envelopeTexts.get(envelope);
  if (text === undefined) {
    text = JSON.stringify(envelope);
    envelopeTexts.set(envelope, text);
  }
  return text;
}

/**
 * One customer's timeline, newest first: when she became a customer, each program she joined, each event she sent
 * with the points it earned and the tiers it took her into, and the webhooks that named her, one entry for those
 * one request caused, told under what caused them. Her publications and events come from the project's figures
 * (her own, in the stores' order), not from a pass over every record; cards are named by their stored code, which a
 * card read whole would have to complete (two digests each) to say the same. Event names read as words.
 */
export function timelineOf(project: Project, customer: Customer): Entry[] {
  const name = customer.name ?? customer.source_id ?? customer.id;
  const campaignName = (id: string) => project.campaigns.find(id)?.name ?? id;
  const codeOf = (cardId: string) => project.vouchers.stored(cardId)?.code ?? cardId;
  const structures = audienceStructures(project);
  // What happened, one group each in the order it happened: a group reads top down, the groups newest first.
  const groups: Entry[][] = [
    [{ at: customer.created_at, kind: "customer", text: `${name} became a customer` }],
  ];
  for (const publication of project.figures.publicationsOf(customer.id))
    groups.push([
      {
        at: publication.created_at,
        kind: "joined",
        text: `Joined ${campaignName(publication.campaign_id)} with card ${codeOf(publication.voucher_id)}`,
      },
    ]);
  for (const event of project.figures.eventsOf(customer.id)) {
    const type = wordsOf(event.type);
    const group: Entry[] = [{ at: event.created_at, kind: "event", text: `Sent ${type}` }];
    for (const earning of event.earned)
      group.push({
        at: event.created_at,
        kind: "points",
        text: `Earned ${earning.points.toLocaleString("en")} points for ${type} on ${codeOf(earning.voucher_id)}`,
      });
    for (const text of reachedSentences(name, tiersReachedBy(event, structures), structures.length))
      group.push({ at: event.created_at, kind: "tier", text });
    groups.push(group);
  }
  // Oldest first, of equal times the one that happened first first: the order a request's webhooks are placed in.
  const order = groups
    .map((group, i) => ({ group, i }))
    .sort((a, b) => byTime(a.group, b.group) || a.i - b.i);
  // The outbox is a ring of the newest deliveries (WEBHOOK_OUTBOX_SIZE): bounded, so read whole.
  const quoted = `"${customer.id}"`;
  const caused = new Map<string, DeliveryBrief[]>();
  for (const delivery of project.outbox.list())
    if (textOf(delivery.envelope).includes(quoted)) {
      const brief = { ...delivery, request_id: delivery.envelope.event.group_id };
      const group = caused.get(brief.request_id);
      if (group === undefined) caused.set(brief.request_id, [brief]);
      else group.push(brief);
    }
  for (const deliveries of caused.values()) {
    const at = (deliveries[0] as DeliveryBrief).created_at;
    const { summary, lines } = groupOf(deliveries);
    const entry: Entry = { at, kind: "webhooks", text: summary, details: lines };
    const under = causeOf(order, at);
    if (under === undefined) order.unshift({ group: [entry], i: -1 });
    else under.push(entry);
  }
  return order.reverse().flatMap(({ group }) => group);
}

const byTime = (a: readonly Entry[], b: readonly Entry[]) => {
  const x = (a[0] as Entry).at;
  const y = (b[0] as Entry).at;
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * What a request's webhooks are told under: the newest of her groups begun by the time they were made (the event
 * or the joining that caused them, on a running clock a few milliseconds earlier); none when they came first.
 */
function causeOf(order: readonly { group: Entry[] }[], at: string): Entry[] | undefined {
  let low = 0;
  let high = order.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (((order[middle] as { group: Entry[] }).group[0] as Entry).at <= at) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? undefined : (order[low - 1] as { group: Entry[] }).group;
}
