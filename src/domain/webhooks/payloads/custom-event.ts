import type { Customer } from "../../customers/customer.js";
import type { RecordedEvent } from "../../events/event.js";
import type { EventSchema } from "../../events/event-schema.js";
import type { Project } from "../../projects/project.js";
import type { Voucher } from "../../vouchers/voucher.js";
import type { Notification } from "../notification.js";
import { WEBHOOK_EVENT } from "../types.js";
import {
  balanceAfter,
  customEventShape,
  earningRuleShape,
  type Payment,
  simpleEarningRule,
  simpleEvent,
  transactionShape,
} from "./loyalty.js";
import { fullVoucher, simpleCampaign, simpleCustomer, simpleVoucher } from "./simple.js";

export interface EventFacts {
  event: RecordedEvent;
  schema: EventSchema;
  customer: Customer;
  /** customer.created / customer.updated when the request made or changed the customer. */
  customerChange: Notification | undefined;
  payments: readonly Payment[];
  /** The card `loyalty.code` named, as it is after the event. */
  loyaltyCard: Voucher | undefined;
  /** The referral card `referral.code` named, with its conversion counted. */
  referralCard: Voucher | undefined;
}

/**
 * What POST /v1/events notifies, in this order: the customer created or updated; the custom event
 * (customer.custom_event); for each earning rule that paid, in the order the rules are stored, the transaction
 * (voucher.loyalty_card.transaction.created), the card's points (voucher.loyalty_card.points_added), the
 * customer's activity (customer.voucher.loyalty_card.points_added) and the reward (customer.rewarded.loyalty_points);
 * last, a referral conversion's reward to the referrer (customer.rewarded). Cause before effects, and each payment's
 * ledger entry before the reports of it.
 */
export function eventNotifications(project: Project, facts: EventFacts): Notification[] {
  const { event, customer } = facts;
  const holder = simpleCustomer(customer);
  const custom = customEventShape(event, holder);
  const notifications: Notification[] = facts.customerChange ? [facts.customerChange] : [];
  const referrer = facts.referralCard && referrerOf(project, facts.referralCard, event);
  notifications.push({
    type: WEBHOOK_EVENT.customCustomerEvent,
    entityId: customer.id,
    data: {
      event: custom,
      event_schema: { id: facts.schema.id, name: facts.schema.name },
      customer: holder,
      referral:
        facts.referralCard && referrer
          ? {
              referrer: simpleCustomer(referrer),
              voucher: simpleVoucher(facts.referralCard),
              campaign: simpleCampaign(project.campaigns.get(facts.referralCard.campaign_id)),
            }
          : null,
      loyalty: facts.loyaltyCard
        ? {
            voucher: simpleVoucher(facts.loyaltyCard),
            campaign: simpleCampaign(project.campaigns.get(facts.loyaltyCard.campaign_id)),
          }
        : null,
    },
  });
  for (const payment of facts.payments)
    notifications.push(...paymentNotifications(project, facts, payment, { holder, custom }));
  if (facts.referralCard && referrer) {
    const rewarded = simpleCustomer(referrer);
    notifications.push({
      type: WEBHOOK_EVENT.customerRewarded,
      entityId: referrer.id,
      data: {
        customer: rewarded,
        holder: rewarded,
        voucher: simpleVoucher(facts.referralCard),
        campaign: simpleCampaign(project.campaigns.get(facts.referralCard.campaign_id)),
        // The emulator models the conversion, not the referral program's rewards or tiers.
        redemption: null,
        reward: null,
        referral_tier: null,
        balance: null,
        custom_event: custom,
        customer_event: null,
      },
    });
  }
  return notifications;
}

/** The referrer is the referral code's holder, or else the customer `referral.referrer_id` names (id or source_id). */
function referrerOf(project: Project, card: Voucher, event: RecordedEvent): Customer | undefined {
  if (card.holder_id) return project.customers.find(card.holder_id);
  const named = event.referral?.referrer_id;
  return named ? (project.customers.find(named) ?? project.customers.findBySourceId(named)) : undefined;
}

function paymentNotifications(
  project: Project,
  facts: EventFacts,
  payment: Payment,
  { holder, custom }: { holder: Record<string, unknown>; custom: Record<string, unknown> },
): Notification[] {
  const { event, schema, customer } = facts;
  const { card } = payment;
  const balance = balanceAfter(card, payment.points);
  const transaction = transactionShape(project.ids, payment, event, schema, balance);
  const campaign = simpleCampaign(project.campaigns.get(card.campaign_id));
  const voucher = simpleVoucher(card);
  return [
    {
      type: WEBHOOK_EVENT.loyaltyTransactionCreated,
      entityId: card.id,
      data: {
        transaction,
        voucher: fullVoucher(card),
        campaign,
        holder,
        holder_loyalty_tier: null,
        balance,
        order: null,
        event: simpleEvent(event),
        earning_rule: simpleEarningRule(payment.rule, schema),
        segment: null,
        loyalty_tier: null,
        redemption: null,
        rollback: null,
        reward: null,
        custom_event: custom,
        source_voucher: null,
        destination_voucher: null,
      },
    },
    {
      type: WEBHOOK_EVENT.voucherPointsAdded,
      entityId: card.id,
      data: { voucher, balance, campaign, customer: holder, transaction },
    },
    {
      type: WEBHOOK_EVENT.customerVoucherPointsAdded,
      entityId: customer.id,
      data: { customer: holder, campaign, voucher, balance, transaction },
    },
    {
      type: WEBHOOK_EVENT.customerRewardedLoyaltyPoints,
      entityId: customer.id,
      data: {
        customer: holder,
        holder,
        voucher,
        campaign,
        loyalty_tier: null,
        earning_rule: earningRuleShape(payment.rule, schema),
        balance,
        order: null,
        event: simpleEvent(event),
      },
    },
  ];
}
