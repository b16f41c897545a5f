import { z } from "zod";
import { CAP_VARIABLES, type Caps } from "../caps.js";
import type { Customer } from "../customers/customer.js";
import { customerInputSchema } from "../customers/customer-input.js";
import { commitCustomer, type ResolvedCustomer, resolveCustomer } from "../customers/resolve-customer.js";
import type { EarningRule } from "../earning-rules/earning-rule.js";
import { limitExceeded, notFound } from "../errors.js";
import type { Project } from "../projects/project.js";
import { metadata } from "../shared/schema-parts.js";
import type { Voucher } from "../vouchers/voucher.js";
import type { Notification } from "../webhooks/notification.js";
import { eventNotifications } from "../webhooks/payloads/custom-event.js";
import { customerNotification } from "../webhooks/payloads/customer.js";
import type { Payment } from "../webhooks/payloads/loyalty.js";
import {
  eventNotDefined,
  invalidReferralCode,
  loyaltyCardNotHeld,
  metadataValidationFailed,
} from "./errors.js";
import type { RecordedEvent } from "./event.js";
import type { EventSchema } from "./event-schema.js";
import { metadataProblem } from "./metadata-check.js";

/** Points one earning rule pays to one card. */
interface Earning {
  rule: EarningRule;
  card: Voucher;
  points: number;
}

const optionalText = z.string().nullable().optional();

/** The body of POST /v1/events. */
export const trackEventBodySchema = z.object({
  event: z.string().min(1).max(300),
  customer: customerInputSchema,
  referral: z.object({ code: optionalText, referrer_id: optionalText }).nullable().optional(),
  loyalty: z.object({ code: optionalText }).nullable().optional(),
  metadata: metadata.nullable().optional(),
});

export type TrackEventInput = z.output<typeof trackEventBodySchema>;

/** The event object the service answers with: referral and loyalty are always null (spec, "Events"). */
export function eventResponse(event: RecordedEvent, customer: Customer) {
  return {
    object: "event" as const,
    type: event.type,
    customer: {
      id: customer.id,
      source_id: customer.source_id,
      name: customer.name,
      email: customer.email,
      metadata: customer.metadata,
      object: "customer" as const,
    },
    referral: null,
    loyalty: null,
    metadata: event.metadata,
  };
}

/**
 * POST /v1/events: the check, then the write. Checks the name against the project's event schema, the metadata
 * against the event's schema, the customer, and the loyalty and referral codes; only then writes, all at once
 * and without a refusal left to make: the customer, the points the project's earning rules give, the referral
 * conversion, and the event itself. A project that keeps its most events (`caps.eventsPerProject`) refuses one
 * more once everything else about it holds. Returns what the webhooks are told too, in order (see
 * eventNotifications).
 */
export function trackEvent(
  project: Project,
  input: TrackEventInput,
  caps: Pick<Caps, "eventsPerProject">,
): { event: RecordedEvent; customer: Customer; notifications: Notification[] } {
  return writeEvent(project, input, checkEvent(project, input, caps));
}

/** What a checked event writes: its schema, the customer as resolved, the cards it names, the points it earns. */
interface CheckedEvent {
  schema: EventSchema;
  metadata: Record<string, unknown>;
  resolved: ResolvedCustomer;
  loyaltyCard: Voucher | undefined;
  referralCard: Voucher | undefined;
  earnings: Earning[];
}

/** Reads only: every rule of the service, in its order, each refusal one of its errors. */
function checkEvent(
  project: Project,
  input: TrackEventInput,
  caps: Pick<Caps, "eventsPerProject">,
): CheckedEvent {
  const schema = project.eventSchemas.findByName(input.event);
  if (!schema) throw eventNotDefined(input.event);
  const metadata = input.metadata ?? {};
  const problem = metadataProblem(schema, metadata);
  if (problem) throw metadataValidationFailed(input.event, problem);

  const resolved = resolveCustomer(project, input.customer);
  const loyaltyCard = input.loyalty?.code
    ? heldLoyaltyCard(project, input.loyalty.code, resolved)
    : undefined;
  const referralCard = input.referral?.code ? referralCardOf(project, input.referral.code) : undefined;
  const earnings = earningsFor(project, input.event, resolved, loyaltyCard);
  if (project.events.size >= caps.eventsPerProject)
    throw limitExceeded(
      `Project ${project.id}`,
      "custom events",
      caps.eventsPerProject,
      CAP_VARIABLES.eventsPerProject,
    );
  return { schema, metadata, resolved, loyaltyCard, referralCard, earnings };
}

/** Writes a checked event: the customer, the points, the referral conversion, the event, and the notifications. */
function writeEvent(
  project: Project,
  input: TrackEventInput,
  checked: CheckedEvent,
): { event: RecordedEvent; customer: Customer; notifications: Notification[] } {
  const { schema, metadata, resolved, loyaltyCard, referralCard, earnings } = checked;
  const customer = commitCustomer(project, resolved);
  const customerChange = customerNotification(project, resolved);
  const at = project.clock.iso();
  // Each write reads the card afresh, so two rules paying the same card add up.
  const payments: Payment[] = [];
  for (const { rule, card, points } of earnings) {
    const current = project.vouchers.get(card.id);
    const loyalty = current.loyalty_card ?? { points: 0, balance: 0 };
    const paid = project.vouchers.put({
      ...current,
      loyalty_card: { ...loyalty, points: loyalty.points + points, balance: loyalty.balance + points },
      updated_at: at,
    });
    payments.push({ rule, card: paid, points });
  }
  let converted: Voucher | undefined;
  if (referralCard) {
    const current = project.vouchers.get(referralCard.id);
    converted = project.vouchers.put({
      ...current,
      redemption: { ...current.redemption, redeemed_quantity: current.redemption.redeemed_quantity + 1 },
      updated_at: at,
    });
  }

  const event: RecordedEvent = {
    id: project.ids.v1Id("evcus"),
    object: "event",
    type: input.event,
    customer_id: customer.id,
    referral: input.referral ? referralRecord(input.referral, referralCard) : null,
    loyalty: input.loyalty?.code ? { code: input.loyalty.code } : input.loyalty ? {} : null,
    metadata,
    // Each earning with the card's points once it was paid: where the card then stood among its tiers.
    earned: payments.map(({ rule, card, points }) => ({
      earning_rule_id: rule.id,
      voucher_id: card.id,
      points,
      points_after: card.loyalty_card?.points ?? points,
    })),
    created_at: at,
  };
  project.events.put(event);
  const notifications = eventNotifications(project, {
    event,
    schema,
    customer,
    customerChange,
    payments,
    loyaltyCard: loyaltyCard && project.vouchers.get(loyaltyCard.id),
    referralCard: converted,
  });
  return { event, customer, notifications };
}

/** `loyalty.code` names the card the event counts for: it must be a loyalty card the event's customer holds. */
function heldLoyaltyCard(project: Project, code: string, resolved: ResolvedCustomer): Voucher {
  const card = project.vouchers.findByCode(code);
  if (!card) throw notFound("voucher", code);
  const customerId = resolved.isNew ? undefined : resolved.customer.id;
  if (card.type !== "LOYALTY_CARD" || !customerId || card.holder_id !== customerId)
    throw loyaltyCardNotHeld(code, customerId);
  return card;
}

function referralCardOf(project: Project, code: string): Voucher {
  const card = project.vouchers.findByCode(code);
  if (!card) throw notFound("voucher", code);
  if (!card.is_referral_code) throw invalidReferralCode(code);
  return card;
}

function referralRecord(referral: NonNullable<TrackEventInput["referral"]>, card: Voucher | undefined) {
  const referrer = referral.referrer_id ?? card?.holder_id ?? undefined;
  return {
    ...(referral.code ? { code: referral.code } : {}),
    ...(referrer ? { referrer_id: referrer } : {}),
    ...(card ? { voucher_id: card.id } : {}),
  };
}

/**
 * The project's active earning rules for this event, each paid to the customer's card in the rule's campaign, or
 * to the card `loyalty.code` named when it belongs to that campaign. A rule with no card to pay is skipped.
 */
function earningsFor(
  project: Project,
  eventName: string,
  resolved: ResolvedCustomer,
  named: Voucher | undefined,
): Earning[] {
  const earnings: Earning[] = [];
  for (const rule of project.earningRules.values()) {
    if (rule.event !== eventName || rule.status !== "ACTIVE") continue;
    const card =
      named?.campaign_id === rule.campaign_id ? named : customerCard(project, resolved, rule.campaign_id);
    if (card) earnings.push({ rule, card, points: rule.loyalty.points });
  }
  return earnings;
}

function customerCard(project: Project, resolved: ResolvedCustomer, campaignId: string): Voucher | undefined {
  if (resolved.isNew) return undefined;
  return project.vouchers
    .heldBy(resolved.customer.id, campaignId)
    .find((card) => card.type === "LOYALTY_CARD");
}
