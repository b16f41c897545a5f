/**
 * The notification types the operations cause, as the envelope's `type` writes them (webhook version
 * v2024-01-01; the vendor's `webhooks` map names each `EVENTS.<TYPE IN CAPITALS>`).
 * docs/guide/webhooks.md, "What each operation notifies", says which operation sends which, when, and in what order.
 */
export const WEBHOOK_EVENT = {
  customerCreated: "customer.created",
  customerUpdated: "customer.updated",
  publicationSucceeded: "publication.succeeded",
  customerPublicationSucceeded: "customer.publication.succeeded",
  voucherPublished: "voucher.published",
  customCustomerEvent: "customer.custom_event",
  loyaltyTransactionCreated: "voucher.loyalty_card.transaction.created",
  voucherPointsAdded: "voucher.loyalty_card.points_added",
  customerVoucherPointsAdded: "customer.voucher.loyalty_card.points_added",
  customerRewardedLoyaltyPoints: "customer.rewarded.loyalty_points",
  customerRewarded: "customer.rewarded",
} as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT)[keyof typeof WEBHOOK_EVENT];

/** Every type an operation of ours can notify, for endpoints' `events` filters and the docs. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = Object.values(WEBHOOK_EVENT);
