import type { Campaign } from "../../campaigns/campaign.js";
import type { Customer } from "../../customers/customer.js";
import type { Publication } from "../../publications/publication.js";
import type { Voucher } from "../../vouchers/voucher.js";
import { lazyNotification, type Notification } from "../notification.js";
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
 * The three share their parts (one customer, campaign, voucher and publication shape), built once, when the
 * first of them is read (lazyNotification: the records they are made of are never changed in place).
 *
 * customer.publication.succeeded's schema describes a publication made by a distribution (its `metadata` must name
 * the distribution's source); one made through the API has no distribution, so `publication` is null there, which
 * the schema allows. The publication itself is in the other two.
 */
export function publicationNotifications(facts: PublicationFacts): Notification[] {
  let parts: ReturnType<typeof partsOf> | undefined;
  const shared = () => {
    parts ??= partsOf(facts);
    return parts;
  };
  return [
    // `user` is the dashboard user behind a publication: null for one made through the API.
    lazyNotification(WEBHOOK_EVENT.publicationSucceeded, facts.publication.id, () => ({
      ...shared(),
      user: null,
    })),
    lazyNotification(WEBHOOK_EVENT.customerPublicationSucceeded, facts.customer.id, () => {
      const { customer, campaign, voucher } = shared();
      return { customer, campaign, publication: null, voucher };
    }),
    lazyNotification(WEBHOOK_EVENT.voucherPublished, facts.voucher.id, () => ({
      ...shared(),
      created_at: facts.publication.created_at,
    })),
  ];
}

/** The parts the three notifications share, in the order their `data` lists them. */
function partsOf(facts: PublicationFacts) {
  return {
    customer: simpleCustomer(facts.customer),
    campaign: simpleCampaign(facts.campaign),
    publication: publicationItem(facts),
    voucher: simpleVoucher(facts.voucher),
  };
}
