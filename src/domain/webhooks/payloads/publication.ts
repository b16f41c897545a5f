import type { Campaign } from "../../campaigns/campaign.js";
import type { Customer } from "../../customers/customer.js";
import type { Publication } from "../../publications/publication.js";
import type { Voucher } from "../../vouchers/voucher.js";
import type { Notification } from "../notification.js";
import { WEBHOOK_EVENT } from "../types.js";
import { publicationCustomer } from "./customer.js";
import { simpleCampaign, simpleCustomer, simpleVoucher } from "./simple.js";

export interface PublicationFacts {
  customer: Customer;
  campaign: Campaign;
  publication: Publication;
  /** The card as published: holder set, publish count grown. */
  voucher: Voucher;
}

/** The vendor's publication list item: `tracking_id` is the customer's source_id, `vouchers_id` the codes' ids. */
function publicationItem({ customer, publication, voucher }: PublicationFacts) {
  return {
    id: publication.id,
    object: "publication",
    created_at: publication.created_at,
    customer_id: publication.customer_id,
    ...(customer.source_id ? { tracking_id: customer.source_id } : {}),
    metadata: publication.metadata,
    channel: publication.channel,
    source_id: publication.source_id,
    result: publication.result,
    customer: publicationCustomer(customer),
    vouchers_id: [voucher.id],
  };
}

/**
 * A card assigned to a customer, in the order the service's records come into being: the publication
 * (publication.succeeded), the customer's activity (customer.publication.succeeded), the card (voucher.published).
 * The three share their parts (one customer, campaign, voucher and publication shape), built once.
 *
 * customer.publication.succeeded's schema describes a publication made by a distribution (its `metadata` must name
 * the distribution's source); one made through the API has no distribution, so `publication` is null there, which
 * the schema allows. The publication itself is in the other two.
 */
export function publicationNotifications(facts: PublicationFacts): Notification[] {
  const customer = simpleCustomer(facts.customer);
  const campaign = simpleCampaign(facts.campaign);
  const voucher = simpleVoucher(facts.voucher);
  const publication = publicationItem(facts);
  return [
    {
      type: WEBHOOK_EVENT.publicationSucceeded,
      entityId: facts.publication.id,
      // `user` is the dashboard user behind a publication: null for one made through the API.
      data: { customer, campaign, publication, voucher, user: null },
    },
    {
      type: WEBHOOK_EVENT.customerPublicationSucceeded,
      entityId: facts.customer.id,
      data: { customer, campaign, publication: null, voucher },
    },
    {
      type: WEBHOOK_EVENT.voucherPublished,
      entityId: facts.voucher.id,
      data: { customer, campaign, publication, voucher, created_at: facts.publication.created_at },
    },
  ];
}
