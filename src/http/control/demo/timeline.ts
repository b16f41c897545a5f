import type { Project } from "../../../domain/projects/project.js";

type Customer = ReturnType<Project["customers"]["get"]>;
type Entry = { at: string; kind: "joined" | "event" | "points" | "webhook" | "customer"; text: string };

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
 * and the points it earned, and each webhook that named her. Her publications and events come from the project's
 * figures (her own, in the stores' order), not from a pass over every record; cards are named by their stored
 * code, which a card read whole would have to complete (two digests each) to say the same.
 */
export function timelineOf(project: Project, customer: Customer): Entry[] {
  const name = customer.name ?? customer.source_id ?? customer.id;
  const campaignName = (id: string) => project.campaigns.find(id)?.name ?? id;
  const codeOf = (cardId: string) => project.vouchers.stored(cardId)?.code ?? cardId;
  const timeline: Entry[] = [
    { at: customer.created_at, kind: "customer", text: `${name} became a customer` },
  ];
  for (const publication of project.figures.publicationsOf(customer.id))
    timeline.push({
      at: publication.created_at,
      kind: "joined",
      text: `Joined ${campaignName(publication.campaign_id)} with card ${codeOf(publication.voucher_id)}`,
    });
  for (const event of project.figures.eventsOf(customer.id)) {
    timeline.push({ at: event.created_at, kind: "event", text: `Sent ${event.type}` });
    for (const earning of event.earned)
      timeline.push({
        at: event.created_at,
        kind: "points",
        text: `Earned ${earning.points.toLocaleString("en")} points for ${event.type} on ${codeOf(earning.voucher_id)}`,
      });
  }
  // The outbox is a ring of the newest deliveries (WEBHOOK_OUTBOX_SIZE): bounded, so read whole.
  const quoted = `"${customer.id}"`;
  for (const delivery of project.outbox.list())
    if (textOf(delivery.envelope).includes(quoted))
      timeline.push({
        at: delivery.created_at,
        kind: "webhook",
        text: `Webhook ${delivery.type} ${delivery.status === "not_sent" ? "recorded (no endpoint)" : delivery.status}`,
      });
  timeline.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return timeline;
}
