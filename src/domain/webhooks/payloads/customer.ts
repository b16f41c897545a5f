import type { Customer } from "../../customers/customer.js";
import type { ResolvedCustomer } from "../../customers/resolve-customer.js";
import type { Project } from "../../projects/project.js";
import { lazyNotification, type Notification } from "../notification.js";
import { WEBHOOK_EVENT } from "../types.js";
import { present } from "./simple.js";

type Json = Record<string, unknown>;

/**
 * The emulator records no orders and no redemptions, so a customer's summary is all zeros; it is the same object
 * for every customer (frozen: notifications share it).
 */
const EMPTY_SUMMARY = Object.freeze({
  redemptions: Object.freeze({
    total_redeemed: 0,
    total_failed: 0,
    total_succeeded: 0,
    total_rolled_back: 0,
    total_rollback_failed: 0,
    total_rollback_succeeded: 0,
    gift: Object.freeze({ redeemed_amount: 0, amount_to_go: 0 }),
    loyalty_card: Object.freeze({ redeemed_points: 0, points_to_go: 0 }),
  }),
  orders: Object.freeze({ total_amount: 0, total_count: 0, average_amount: 0, last_order_amount: 0 }),
});

/** Who referred the customer is not kept by the emulator (only a conversion's referrer is). */
const NO_REFERRALS = Object.freeze({ total: 0, campaigns: Object.freeze([]) });

/**
 * The customer's loyalty as the service sums it: the points left on the loyalty cards they hold, per campaign
 * (keyed by the campaign's name, as the vendor's examples key it) and in all, and the conversions recorded on
 * their referral codes. Costs the cards the customer holds, found through the store's holder index.
 */
function loyaltyOf(project: Project, customerId: string) {
  let points = 0;
  let referred = 0;
  const campaigns: Record<string, { points?: number; referred_customers: number }> = {};
  for (const card of project.vouchers.heldBy(customerId)) {
    const entry = campaigns[card.campaign] ?? { referred_customers: 0 };
    campaigns[card.campaign] = entry;
    if (card.loyalty_card) {
      points += card.loyalty_card.balance;
      entry.points = (entry.points ?? 0) + card.loyalty_card.balance;
    }
    if (card.is_referral_code) {
      referred += card.redemption.redeemed_quantity;
      entry.referred_customers += card.redemption.redeemed_quantity;
    }
  }
  return { points, referred_customers: referred, campaigns };
}

const NO_LOYALTY = Object.freeze({ points: 0, referred_customers: 0, campaigns: Object.freeze({}) });

/**
 * The vendor's `CustomerWithSummaryLoyaltyReferrals`, as customer.created and customer.updated carry it: the
 * record's fields (nulls left out: the schema types them as strings), the summary, loyalty and referrals.
 * `loyalty` is summed by the caller when the notification is made (a new customer holds nothing: no lookup).
 */
function customerWithSummary(customer: Customer, loyalty: Json): Json {
  return {
    ...present({
      id: customer.id,
      source_id: customer.source_id,
      name: customer.name,
      description: customer.description,
      email: customer.email,
      phone: customer.phone,
      birthdate: customer.birthdate,
      address: customer.address && present(customer.address),
      metadata: customer.metadata,
    }),
    summary: EMPTY_SUMMARY,
    loyalty,
    referrals: NO_REFERRALS,
    system_metadata: {},
    ...present({ created_at: customer.created_at, updated_at: customer.updated_at }),
    object: "customer",
  };
}

/**
 * A publication carries its customer without the summary, loyalty and referrals (null, as the vendor's examples
 * send them): those belong to customer.created / customer.updated.
 */
export function publicationCustomer(customer: Customer): Json {
  return {
    ...present({
      id: customer.id,
      source_id: customer.source_id,
      name: customer.name,
      email: customer.email,
      address: customer.address && present(customer.address),
      metadata: customer.metadata,
    }),
    summary: null,
    loyalty: null,
    referrals: null,
    object: "customer",
  };
}

/**
 * customer.created when the request made the customer, customer.updated when it changed a stored one (a field it
 * gave differs from what was stored; resolveCustomer decides), nothing when it only named them. Built when the
 * customer is committed, before the operation's other writes, as the service records the customer first.
 */
export function customerNotification(project: Project, resolved: ResolvedCustomer): Notification | undefined {
  if (!resolved.changed) return undefined;
  const { customer, isNew } = resolved;
  // The loyalty sums cards as they are now, which later requests change: summed now, the rest built when read.
  const loyalty = isNew ? NO_LOYALTY : loyaltyOf(project, customer.id);
  return lazyNotification(
    isNew ? WEBHOOK_EVENT.customerCreated : WEBHOOK_EVENT.customerUpdated,
    customer.id,
    () => ({ customer: customerWithSummary(customer, loyalty) }),
  );
}
