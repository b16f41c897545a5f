import type { IdSource } from "../../../platform/ids.js";
import type { EarningRule } from "../../earning-rules/earning-rule.js";
import type { RecordedEvent } from "../../events/event.js";
import type { EventSchema } from "../../events/event-schema.js";
import type { Voucher } from "../../vouchers/voucher.js";
import { WEBHOOK_EVENT } from "../types.js";
import { present } from "./simple.js";

/**
 * The loyalty parts of the notifications a custom event causes: the event itself as the vendor's `CustomEvent`,
 * the earning rule that paid, the balance after a payment and the loyalty transaction that records it.
 */
type Json = Record<string, unknown>;

/**
 * The vendor's CustomEvent types `referral` and `loyalty` as objects (not null): an event without them carries
 * empty ones. The referral's code and referrer are what the request gave (or the code's holder), as stored.
 * `customer` is the event's customer as simpleCustomer shapes it.
 */
export function customEventShape(event: RecordedEvent, customer: Json): Json {
  return {
    id: event.id,
    object: "event",
    type: event.type,
    customer,
    referral: event.referral
      ? present({ referrer_id: event.referral.referrer_id, code: event.referral.code })
      : {},
    loyalty: event.loyalty ? present({ code: event.loyalty.code }) : {},
    metadata: event.metadata,
    created_at: event.created_at,
  };
}

/** The customer event behind the payments: a custom event, about its customer. */
export function simpleEvent(event: RecordedEvent): Json {
  return {
    id: event.id,
    type: WEBHOOK_EVENT.customCustomerEvent,
    entity_id: event.customer_id,
    created_at: event.created_at,
  };
}

/**
 * Earning rules belong to an automation in the service (`automation_id`, required by its schema); the emulator
 * keeps none, so each rule has a stable one made from its own id (`lern_<hex>` -> `auto_<hex>`).
 */
function automationId(rule: EarningRule): string {
  return `auto_${rule.id.slice(rule.id.indexOf("_") + 1)}`;
}

function ruleSource(rule: EarningRule): Json {
  return present({ banner: rule.name, object_id: rule.campaign_id, object_type: "campaign" });
}

/** The vendor's EarningRule (customer.rewarded.loyalty_points): a FIXED rule on a custom event. */
export function earningRuleShape(rule: EarningRule, schema: EventSchema): Json {
  return {
    id: rule.id,
    created_at: rule.created_at,
    loyalty: { type: rule.loyalty.type, points: rule.loyalty.points },
    event: "custom_event",
    custom_event: { schema_id: schema.id },
    source: ruleSource(rule),
    active: rule.status === "ACTIVE",
    object: "earning_rule",
    automation_id: automationId(rule),
    metadata: {},
    validation_rule_id: null,
    updated_at: rule.updated_at,
  };
}

/** The vendor's SimpleEarningRule (voucher.loyalty_card.transaction.created). */
export function simpleEarningRule(rule: EarningRule, schema: EventSchema): Json {
  return {
    id: rule.id,
    campaign_id: rule.campaign_id,
    automation_id: automationId(rule),
    active: rule.status === "ACTIVE",
    source: ruleSource(rule),
    loyalty: { type: rule.loyalty.type, points: rule.loyalty.points },
    event: "custom_event",
    custom_event: { schema_id: schema.id },
    metadata: {},
  };
}

/**
 * The card's balance after a payment: `points` what this payment added, `total` the card's points, `balance` what
 * is left to spend. Earning rules pay without anyone's hand, so the operation is AUTOMATIC.
 */
export function balanceAfter(card: Voucher, added: number): Json {
  return {
    type: "loyalty_card",
    total: card.loyalty_card?.points ?? 0,
    object: "balance",
    points: added,
    balance: card.loyalty_card?.balance ?? 0,
    operation_type: "AUTOMATIC",
    related_object: { id: card.id, type: "voucher" },
  };
}

export interface Payment {
  rule: EarningRule;
  /** The card as it was written by this payment (a second payment to the same card sees the first). */
  card: Voucher;
  points: number;
}

/**
 * The loyalty transaction a payment makes: points earned through an earning rule are a POINTS_ACCRUAL (the vendor's
 * transaction types; POINTS_ADDITION is a manual addition). The emulator keeps no transactions; the id (`vtx_` and
 * 18 hex, as the service writes them) is made for the notification and shared by every notification about it.
 */
export function transactionShape(
  ids: IdSource,
  payment: Payment,
  event: RecordedEvent,
  schema: EventSchema,
  balance: Json,
): Json {
  return {
    id: ids.v2Id("vtx"),
    source_id: null,
    voucher_id: payment.card.id,
    campaign_id: payment.card.campaign_id,
    source: "API",
    reason: null,
    type: "POINTS_ACCRUAL",
    details: {
      balance,
      event: { id: event.id, type: WEBHOOK_EVENT.customCustomerEvent },
      earning_rule: { id: payment.rule.id, source: { banner: payment.rule.name ?? payment.rule.id } },
      custom_event: { id: event.id, type: event.type },
      event_schema: { id: schema.id, name: schema.name },
    },
    related_transaction_id: null,
    created_at: event.created_at,
  };
}
